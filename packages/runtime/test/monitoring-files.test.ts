import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { collectDefaultMetrics, Registry, register } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { operationalGauges, queueGauges } from '../src/metrics/index.ts';

const run = promisify(execFile);
const repo = join(import.meta.dirname, '../../..');
const read = (path: string) => readFileSync(join(repo, path), 'utf8');

/** Every series name a Hallmark process can export, histograms with their three suffixes. */
function exportedNames(): Set<string> {
  const extra = new Registry();
  queueGauges(async () => [], extra);
  operationalGauges(
    {
      signingCertificateNotAfter: () => null,
      minterBalanceEther: async () => null,
      webhookBacklog: async () => null,
    },
    extra,
  );
  collectDefaultMetrics({ register: extra });
  const names = new Set<string>(['up']);
  for (const metric of [...register.getMetricsAsArray(), ...extra.getMetricsAsArray()]) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram') {
      for (const suffix of ['_bucket', '_count', '_sum']) names.add(`${metric.name}${suffix}`);
    }
  }
  return names;
}

/** The series names a PromQL text refers to (ours, Node's, and `up`). */
function referencedNames(promql: string): string[] {
  return [...promql.matchAll(/\b(hallmark_[a-z_]+|nodejs_[a-z_]+|process_[a-z_]+|up)\b/g)].map(
    (match) => match[1] ?? '',
  );
}

interface Panel {
  readonly id: number;
  readonly type: string;
  readonly title: string;
  readonly gridPos: { x: number; y: number; w: number; h: number };
  readonly targets?: Array<{ expr: string; refId: string }>;
}

describe('infra/prometheus and infra/grafana', () => {
  const names = exportedNames();

  it('the alert rules are valid, and each fires on what should raise it (promtool)', async () => {
    const folder = join(repo, 'infra/prometheus');
    const promtool = async (...args: string[]) => {
      try {
        return (await run('promtool', args, { cwd: folder })).stdout;
      } catch (error) {
        const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
        throw new Error(`promtool ${args.join(' ')}:\n${stdout}${stderr}`);
      }
    };
    expect(await promtool('check', 'rules', 'alerts.yml')).toContain('SUCCESS: 8 rules found');
    expect(await promtool('test', 'rules', 'alerts.test.yml')).toContain('SUCCESS');
    const unknown = referencedNames(read('infra/prometheus/alerts.yml')).filter(
      (name) => !names.has(name),
    );
    expect(unknown).toEqual([]);
  });

  it('the dashboard: every panel queries series the processes export, laid out on the grid', () => {
    const dashboard = JSON.parse(read('infra/grafana/hallmark.json')) as {
      uid: string;
      panels: Panel[];
      templating: { list: Array<{ name: string; type: string }> };
    };
    expect(dashboard.templating.list).toContainEqual(
      expect.objectContaining({ name: 'datasource', type: 'datasource' }),
    );
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    const charts = dashboard.panels.filter((panel) => panel.type !== 'row');
    expect(charts.length).toBeGreaterThan(15);
    for (const panel of charts) {
      expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
      expect(panel.targets?.length ?? 0, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) {
        const referenced = referencedNames(target.expr);
        expect(referenced.length, `${panel.title}: ${target.expr}`).toBeGreaterThan(0);
        expect(
          referenced.filter((name) => !names.has(name)),
          `${panel.title}: ${target.expr}`,
        ).toEqual([]);
      }
    }
  });

  it("docs/monitoring.md names every series of Hallmark's own", () => {
    const page = read('docs/monitoring.md');
    const own = register
      .getMetricsAsArray()
      .map((metric) => metric.name)
      .filter((name) => name.startsWith('hallmark_'));
    const gauges = [...names].filter(
      (name) => name.startsWith('hallmark_') && !/_(bucket|count|sum)$/.test(name),
    );
    const missing = [...new Set([...own, ...gauges])].filter(
      (name) => !page.includes(`\`${name}\``),
    );
    expect(missing).toEqual([]);
  });
});
