import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

// The mechanism behind RENDER_WORKER_NICE (decision 049, session 17), apart from the product: an event
// loop doing 1-ms tasks on 5-ms timers (requests) beside a worker thread rendering back to back (25-ms
// busy slices, a Discover render's CPU), the worker at each nice value in turn, alternated. Run it on one
// core so that the two threads contend: `taskset -c 1 node --import tsx scripts/bench/render-nice.ts 0,5,10 8 2`
// (nice values, seconds per run, rounds). Prints the loop's timer lateness and the renders done per run.

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { readlinkSync } = require('node:fs');
const os = require('node:os');
if (workerData.nice > 0) os.setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), workerData.nice);
let renders = 0;
const end = Date.now() + workerData.ms;
while (Date.now() < end) {
  const start = performance.now();
  while (performance.now() - start < 25);
  renders++;
}
parentPort.postMessage(renders);`;

interface Run {
  nice: number;
  loopTasks: number;
  lateP50: number;
  lateP99: number;
  lateMax: number;
  delayP99: number;
  renders: number;
}

async function runOnce(nice: number, seconds: number): Promise<Run> {
  const worker = new Worker(WORKER, { eval: true, workerData: { nice, ms: seconds * 1000 } });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const late: number[] = [];
  let running = true;
  const tick = () => {
    const due = performance.now() + 5;
    setTimeout(() => {
      late.push(performance.now() - due);
      const start = performance.now();
      while (performance.now() - start < 1);
      if (running) tick();
    }, 5);
  };
  tick();
  const renders = await new Promise<number>((resolve) => worker.once('message', resolve));
  running = false;
  delay.disable();
  await worker.terminate();
  late.sort((a, b) => a - b);
  const at = (p: number) => Math.round(late[Math.floor((late.length - 1) * p)]! * 10) / 10;
  return {
    nice,
    loopTasks: late.length,
    lateP50: at(0.5),
    lateP99: at(0.99),
    lateMax: at(1),
    delayP99: Math.round(delay.percentile(99) / 1e5) / 10,
    renders,
  };
}

const nices = (process.argv[2] ?? '0,5,10').split(',').map(Number);
const seconds = Number(process.argv[3] ?? 8);
const rounds = Number(process.argv[4] ?? 2);
for (let round = 0; round < rounds; round++)
  for (const nice of nices) console.log(JSON.stringify(await runOnce(nice, seconds)));
