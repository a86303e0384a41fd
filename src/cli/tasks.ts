// Operator CLI for social tasks: `npm run tasks -- add|list|remove` against the server's database
// (DATABASE_URL's PostgreSQL when set, else the SQLite file at DATABASE_PATH).
import { loadConfig } from '../config.ts';
import { runCli } from './run.ts';
import { openCliStore } from './open-store.ts';
import {
  addSocialTask,
  formatTaskLine,
  listAllSocialTasks,
  parseTasksCommand,
  removeSocialTask,
  UsageError,
} from '../social/manage-social-tasks.ts';

async function main(argv: string[]): Promise<number> {
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
  const store = await openCliStore(config.database);
  try {
    switch (command.kind) {
      case 'add': {
        const task = await addSocialTask(store, command.task, Date.now());
        console.log(`Added task ${task.id}`);
        console.log(formatTaskLine(task));
        return 0;
      }
      case 'list': {
        const tasks = await listAllSocialTasks(store.read);
        if (tasks.length === 0) console.log('No social tasks yet.');
        for (const task of tasks) console.log(formatTaskLine(task));
        return 0;
      }
      case 'remove': {
        if (!(await removeSocialTask(store, command.id))) {
          console.error(`No task with id ${command.id}. See: npm run tasks -- list`);
          return 1;
        }
        console.log(`Removed task ${command.id}`);
        return 0;
      }
    }
  } finally {
    await store.close();
  }
}

await runCli(main);
