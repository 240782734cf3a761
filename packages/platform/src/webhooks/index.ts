export {
  AddressNotAllowedError,
  guardedLookup,
  isPrivateAddress,
  isPrivateHost,
} from './address-guard.ts';
export { generateWebhookSecret, signWebhook } from './standard-webhooks.ts';
