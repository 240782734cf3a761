// HDR10's static metadata: the mastering display's colour volume (SMPTE ST 2086) and the content
// light levels (CTA-861.3). An HDR display tone-maps a PQ picture by them; they ride on the
// first frame as side data, which raw frames do not carry, so they are read here and given to
// the encoder as x265 parameters.

import { runForOutput, type VideoTools } from './ffmpeg.ts';

export interface HdrMetadata {
  /**
   * In x265's units: chromaticities in 0.00002, luminances in 0.0001 cd/m2, as its
   * master-display parameter takes them (G, B, R, white point, then max and min luminance).
   */
  readonly masteringDisplay?: {
    readonly green: readonly [number, number];
    readonly blue: readonly [number, number];
    readonly red: readonly [number, number];
    readonly whitePoint: readonly [number, number];
    readonly luminance: readonly [max: number, min: number];
  };
  /** MaxCLL and MaxFALL in cd/m2. */
  readonly contentLightLevel?: readonly [maxContent: number, maxAverage: number];
}

interface SideData {
  readonly side_data_type?: string;
  readonly [field: string]: unknown;
}

/** The first frame's HDR10 metadata, or undefined when it has none. */
export async function readHdrMetadata(
  path: string,
  tools: VideoTools,
  signal?: AbortSignal,
): Promise<HdrMetadata | undefined> {
  const text = await runForOutput(
    tools.ffprobe,
    [
      ...['-v', 'error', '-select_streams', 'v:0', '-read_intervals', '%+#1'],
      ...['-show_entries', 'frame_side_data_list', '-of', 'json', path],
    ],
    signal,
  );
  const parsed = JSON.parse(text) as { frames?: { side_data_list?: SideData[] }[] };
  const sideData = parsed.frames?.[0]?.side_data_list ?? [];
  const display = sideData.find((d) => d.side_data_type === 'Mastering display metadata');
  const light = sideData.find((d) => d.side_data_type === 'Content light level metadata');
  const masteringDisplay = display === undefined ? undefined : masteringDisplayOf(display);
  const contentLightLevel = light === undefined ? undefined : contentLightLevelOf(light);
  if (masteringDisplay === undefined && contentLightLevel === undefined) return undefined;
  return {
    ...(masteringDisplay === undefined ? {} : { masteringDisplay }),
    ...(contentLightLevel === undefined ? {} : { contentLightLevel }),
  };
}

/** x265's parameters that write the metadata back (each also turns on its HDR10 SEI). */
export function x265HdrParams(metadata: HdrMetadata | undefined): string[] {
  const params: string[] = [];
  const display = metadata?.masteringDisplay;
  if (display !== undefined) {
    const pair = ([x, y]: readonly [number, number]) => `(${x},${y})`;
    params.push(
      `master-display=G${pair(display.green)}B${pair(display.blue)}R${pair(display.red)}` +
        `WP${pair(display.whitePoint)}L${pair(display.luminance)}`,
    );
  }
  const light = metadata?.contentLightLevel;
  if (light !== undefined) params.push(`max-cll=${light[0]},${light[1]}`);
  return params;
}

const CHROMATICITY_UNITS = 50_000;
const LUMINANCE_UNITS = 10_000;

function masteringDisplayOf(data: SideData): HdrMetadata['masteringDisplay'] {
  const at = (field: string, units: number) => inUnits(data[field], units);
  const xy = (name: string) =>
    [at(`${name}_x`, CHROMATICITY_UNITS), at(`${name}_y`, CHROMATICITY_UNITS)] as const;
  const green = xy('green');
  const blue = xy('blue');
  const red = xy('red');
  const whitePoint = xy('white_point');
  const luminance = [
    at('max_luminance', LUMINANCE_UNITS),
    at('min_luminance', LUMINANCE_UNITS),
  ] as const;
  const values = [...green, ...blue, ...red, ...whitePoint, ...luminance];
  // A display's metadata is whole or not given: a part missing leaves it all out.
  if (values.some((value) => value === undefined)) return undefined;
  return {
    green: green as [number, number],
    blue: blue as [number, number],
    red: red as [number, number],
    whitePoint: whitePoint as [number, number],
    luminance: luminance as [number, number],
  };
}

function contentLightLevelOf(data: SideData): HdrMetadata['contentLightLevel'] {
  const maxContent = data.max_content;
  const maxAverage = data.max_average;
  if (!isLevel(maxContent) || !isLevel(maxAverage)) return undefined;
  return [maxContent, maxAverage];
}

function isLevel(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** ffprobe's rational ('34000/50000') in whole `units`, or undefined when it is not one. */
function inUnits(value: unknown, units: number): number | undefined {
  if (typeof value !== 'string') return undefined;
  const [num, den] = value.split('/').map(Number);
  if (num === undefined || den === undefined || !(den > 0) || !(num >= 0)) return undefined;
  return Math.round((num / den) * units);
}
