export {
  AddressNotAllowedError,
  guardedLookup,
  isPrivateAddress,
  isPrivateHost,
} from './address-guard.ts';
export { ipv6Groups, unmappedAddress } from './ip-address.ts';
export { generateWebhookSecret, signWebhook } from './standard-webhooks.ts';
