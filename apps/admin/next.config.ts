import type { NextConfig } from 'next';

/** The API's default VERIFY_SYNC_MAX_BYTES, when the console is not told the deployment's. */
const VERIFY_SYNC_MAX_BYTES = 10 * 1024 * 1024;
const FORM_FIELDS_BYTES = 64 * 1024;

function verifyBodyLimit(): number {
  const configured = Number(process.env.VERIFY_SYNC_MAX_BYTES);
  return (
    (Number.isInteger(configured) && configured > 0 ? configured : VERIFY_SYNC_MAX_BYTES) +
    FORM_FIELDS_BYTES
  );
}

const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The console is one small app; its own lint and type checks run in the workspace's tasks.
  typescript: { ignoreBuildErrors: false },
  // The session token is a cookie of the console; the browser never sees the API's. Forms are
  // small, but a picture to verify is posted through a server action too: as large as the API
  // takes in a request, plus the form's own fields. The API judges the picture.
  experimental: { serverActions: { bodySizeLimit: verifyBodyLimit() } },
  // Pages link app/icon.svg; a browser (or a bookmark) that asks for the old name gets it too.
  async rewrites() {
    return [{ source: '/favicon.ico', destination: '/icon.svg' }];
  },
};

export default config;
