export {
  type ContentComparison,
  type ContentState,
  compareContent,
  NOT_COMPARED,
} from './compare.ts';
export type { ContentInput } from './decode.ts';
export { drawRegions } from './draw-regions.ts';
export type { Size } from './placement.ts';
export { makeContentReference, REFERENCE_MAX_BYTES, REFERENCE_SIDE } from './reference.ts';
export type { Region } from './regions.ts';
