import type { NextConfig } from 'next';

const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The console is one small app; its own lint and type checks run in the workspace's tasks.
  typescript: { ignoreBuildErrors: false },
  // The session token is a cookie of the console; the browser never sees the API's.
  experimental: { serverActions: { bodySizeLimit: '64kb' } },
};

export default config;
