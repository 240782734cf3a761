// A job's upload or output as the browser can show it: a picture, a player for video and
// sound. The links are the API's short-lived signed ones, used as they are.

export function MediaPreview({
  url,
  contentType,
  alt,
}: {
  readonly url: string;
  readonly contentType: string;
  readonly alt: string;
}) {
  if (contentType.startsWith('video/')) {
    return (
      // biome-ignore lint/a11y/useMediaCaption: an uploaded clip has no captions to offer
      <video src={url} controls preload="metadata" aria-label={alt} />
    );
  }
  if (contentType.startsWith('audio/')) {
    return (
      // biome-ignore lint/a11y/useMediaCaption: an uploaded recording has no captions to offer
      <audio src={url} controls preload="metadata" aria-label={alt} />
    );
  }
  return (
    // biome-ignore lint/performance/noImgElement: a short-lived signed link of the API, shown as is (next/image would fetch and cache it through the console)
    <img src={url} alt={alt} />
  );
}
