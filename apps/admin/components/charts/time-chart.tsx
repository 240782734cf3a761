import { niceCeiling } from './scale.ts';

/** One line or one layer of bars: a value per point of the chart, null where there is none. */
export interface Series {
  readonly name: string;
  /** A colour of the console's palette (globals.css), as a CSS class `series-<tone>`. */
  readonly tone: 'ok' | 'bad' | 'accent' | 'warn' | 'muted';
  readonly values: readonly (number | null)[];
}

export interface TimeChartProps {
  /** Unique on the page: names the chart's title and description for assistive technology. */
  readonly id: string;
  readonly title: string;
  /** What the chart shows, in a sentence: read out in place of the picture. */
  readonly description: string;
  /** A label per point (an hour, a day), oldest first. */
  readonly labels: readonly string[];
  readonly series: readonly Series[];
  /** Bars stacked per point (counts), or a line per series (times, depths). */
  readonly kind: 'bars' | 'lines';
  /** How a value is written on the axis and in the table. */
  readonly format?: (value: number) => string;
  /**
   * The least the axis goes up to, so an empty or quiet chart keeps sensible ticks: 2 for counts
   * (never a tick at half a job), a second for durations, a minute for ages.
   */
  readonly minTop?: number;
}

/**
 * The stretches of a line between hours without a value: drawn apart, so a line never bridges an
 * hour in which nothing ended; a lone point is drawn as a dot.
 */
function runs(values: readonly (number | null)[]): { index: number; value: number }[][] {
  const found: { index: number; value: number }[][] = [];
  let current: { index: number; value: number }[] = [];
  for (const [index, value] of values.entries()) {
    if (value === null) {
      if (current.length > 0) found.push(current);
      current = [];
    } else current.push({ index, value });
  }
  if (current.length > 0) found.push(current);
  return found;
}

const WIDTH = 640;
const HEIGHT = 180;
const LEFT = 56;
const RIGHT = 8;
const TOP = 10;
const BOTTOM = 22;
const PLOT_WIDTH = WIDTH - LEFT - RIGHT;
const PLOT_HEIGHT = HEIGHT - TOP - BOTTOM;

/**
 * A chart over time as server-rendered SVG: no script, so it shows in any browser and prints.
 * The picture has a title and a description, and the numbers behind it follow in a table a
 * reader can open (and a screen reader reads), so nothing is only in the picture.
 */
export function TimeChart({
  id,
  title,
  description,
  labels,
  series,
  kind,
  format = String,
  minTop = 2,
}: TimeChartProps) {
  const count = labels.length;
  const totals = labels.map((_, index) =>
    kind === 'bars'
      ? series.reduce((sum, line) => sum + (line.values[index] ?? 0), 0)
      : Math.max(0, ...series.map((line) => line.values[index] ?? 0)),
  );
  const top = niceCeiling(Math.max(minTop, ...totals));
  const step = PLOT_WIDTH / Math.max(count, 1);
  const y = (value: number) => TOP + PLOT_HEIGHT - (value / top) * PLOT_HEIGHT;
  const x = (index: number) => LEFT + index * step + step / 2;
  const labelled = count <= 1 ? [0] : [0, Math.floor((count - 1) / 2), count - 1];
  return (
    <figure className="chart" data-testid={`chart-${id}`}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {[0, top / 2, top].map((tick) => (
          <g key={tick} className="grid">
            <line x1={LEFT} x2={WIDTH - RIGHT} y1={y(tick)} y2={y(tick)} />
            <text x={LEFT - 6} y={y(tick) + 4} textAnchor="end">
              {format(tick)}
            </text>
          </g>
        ))}
        {kind === 'bars'
          ? labels.map((label, index) => {
              let base = 0;
              return (
                <g key={label}>
                  {series.map((line) => {
                    const value = line.values[index] ?? 0;
                    if (value === 0) return null;
                    const rect = (
                      <rect
                        key={line.name}
                        className={`series-${line.tone}`}
                        x={LEFT + index * step + step * 0.1}
                        width={Math.max(step * 0.8, 1)}
                        y={y(base + value)}
                        height={y(base) - y(base + value)}
                      />
                    );
                    base += value;
                    return rect;
                  })}
                </g>
              );
            })
          : series.map((line) => (
              <g key={line.name} className={`line series-${line.tone}`}>
                {runs(line.values).map((run) =>
                  run.length === 1 ? (
                    <circle
                      key={run[0]?.index}
                      cx={x(run[0]?.index ?? 0)}
                      cy={y(run[0]?.value ?? 0)}
                      r={2.5}
                    />
                  ) : (
                    <polyline
                      key={run[0]?.index}
                      points={run.map(({ index, value }) => `${x(index)},${y(value)}`).join(' ')}
                    />
                  ),
                )}
              </g>
            ))}
        {labelled.map((index) => (
          <text
            key={index}
            className="axis"
            x={x(index)}
            y={HEIGHT - 6}
            textAnchor={index === 0 ? 'start' : index === count - 1 ? 'end' : 'middle'}
          >
            {labels[index]}
          </text>
        ))}
      </svg>
      <figcaption>
        <strong>{title}</strong>
        <span className="legend">
          {series.map((line) => (
            <span key={line.name} className={`key series-${line.tone}`}>
              {line.name}
            </span>
          ))}
        </span>
      </figcaption>
      <details>
        <summary>The numbers</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              {series.map((line) => (
                <th key={line.name} scope="col">
                  {line.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((label, index) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {series.map((line) => {
                  const value = line.values[index] ?? null;
                  return <td key={line.name}>{value === null ? '—' : format(value)}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
