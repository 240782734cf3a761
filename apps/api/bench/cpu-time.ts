import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Linux's clock ticks per second for /proc's CPU times (`getconf CLK_TCK`). */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

export type ProcessTable = ReadonlyArray<{ pid: number; ppid: number; name: string }>;

/** Every process's parent and command name, from one `ps`: read once per reading, then walked. */
export function processTable(): ProcessTable {
  return execFileSync('ps', ['-e', '-o', 'pid=,ppid=,comm='])
    .toString()
    .trim()
    .split('\n')
    .map((line) => {
      const [pid, ppid, ...name] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), name: name.join(' ') };
    });
}

/** The process and all its descendants (an api's supervised processes, a shell's exec). */
export function processTree(root: number, table: ProcessTable = processTable()): number[] {
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    for (const row of table) if (row.ppid === tree[i]) tree.push(row.pid);
  }
  return tree;
}

/** Every process whose command name is `name` (PostgreSQL's backends, redis-server, anvil). */
export function processesNamed(name: string, table: ProcessTable = processTable()): number[] {
  return table.filter((row) => row.name === name).map((row) => row.pid);
}

/** CPU seconds (user + system, every thread) each process used so far. */
export function cpuSeconds(pids: readonly number[]): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const pid of pids) {
    try {
      // The command name may hold spaces: the fields after it start past its closing ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      seconds.set(pid, (Number(fields[11]) + Number(fields[12])) / TICKS);
    } catch {
      // The process ended between listing and reading.
    }
  }
  return seconds;
}

/**
 * The CPU seconds spent between two readings: by the processes of the second, less what each
 * had spent at the first. A process that ended in between (a PostgreSQL autovacuum worker) is
 * left out rather than counted as negative time.
 */
export function spentBetween(before: Map<number, number>, after: Map<number, number>): number {
  let spent = 0;
  for (const [pid, seconds] of after) spent += seconds - (before.get(pid) ?? 0);
  return spent;
}

/** The whole machine's CPU ticks so far: all, and those not idle (/proc/stat's first line). */
export function machineTicks(): { total: number; busy: number } {
  const [, ...fields] =
    readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/) ?? [];
  const ticks = fields.map(Number);
  const total = ticks.reduce((sum, value) => sum + value, 0);
  // idle and iowait are the 4th and 5th fields.
  return { total, busy: total - (ticks[3] ?? 0) - (ticks[4] ?? 0) };
}
