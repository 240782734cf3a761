export {
  CONSOLE_CLIENT_HEADER,
  CONSOLE_PROOF_HEADER,
  consoleForwardingHeaders,
  forwardedConsoleClient,
} from './console-forwarding.ts';
export { loadServiceKeys, type ServiceKeys, type ServiceSecretSettings } from './service-keys.ts';
export { trustProxySetting } from './trust-proxy.ts';
