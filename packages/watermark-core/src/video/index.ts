// The video mark: the image mark on a video's frames, read back from means of frames. ffmpeg
// (Debian's, as a child process) decodes and encodes; README.md#video-mark has the design and
// the measured results.

export { DEBIAN_VIDEO_TOOLS, FfmpegError, type FfmpegStage, type VideoTools } from './ffmpeg.ts';
export { LumaPlaneMarker, VIDEO_STRENGTH } from './luma-plane-mark.ts';
export { type MarkedVideo, type MarkVideoOptions, markVideoFile } from './mark-video.ts';
export { MARKED_CRF, MARKED_PRESET } from './marked-encoding.ts';
export { probeVideo, type VideoColour, type VideoInfo } from './probe.ts';
export { type ReadVideoOptions, readVideoMark, type VideoMarkReading } from './read-video.ts';
