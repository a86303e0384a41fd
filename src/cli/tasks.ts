// Operator CLI for social tasks: `npm run tasks -- add|list|remove` against DATABASE_PATH (like the server).
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import {
  addSocialTask,
  formatTaskLine,
  listAllSocialTasks,
  parseTasksCommand,
  removeSocialTask,
  UsageError,
} from '../social/manage-social-tasks.ts';

function main(argv: string[]): number {
  let command;
  try {
    command = parseTasksCommand(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  const config = loadConfig(process.env);
  const database = openDatabase(config.databasePath);
  try {
    switch (command.kind) {
      case 'add': {
        const task = addSocialTask(database.db, command.task, Date.now());
        console.log(`Added task ${task.id}`);
        console.log(formatTaskLine(task));
        return 0;
      }
      case 'list': {
        const tasks = listAllSocialTasks(database.db);
        if (tasks.length === 0) console.log('No social tasks yet.');
        for (const task of tasks) console.log(formatTaskLine(task));
        return 0;
      }
      case 'remove': {
        if (!removeSocialTask(database.db, command.id)) {
          console.error(`No task with id ${command.id}. See: npm run tasks -- list`);
          return 1;
        }
        console.log(`Removed task ${command.id}`);
        return 0;
      }
    }
  } finally {
    database.close();
  }
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exitCode = 1;
  } else {
    throw err;
  }
}
