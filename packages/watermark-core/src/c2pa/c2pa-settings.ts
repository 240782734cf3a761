// Settings handed to c2pa-node. Reading and signing never reach the network on their own: remote
// manifests and OCSP responses are not fetched (a verifier must not be steered into requests by
// the file it checks). Only a configured timestamp authority is contacted, at signing time.

const OFFLINE_VERIFY = {
  verify_trust: true,
  remote_manifest_fetch: false,
  ocsp_fetch: false,
} as const;

/** Trust decisions rest on `trustAnchors` (PEM) alone; without them every signer is untrusted. */
export function readerSettings(trustAnchors: string | undefined): object {
  return {
    verify: OFFLINE_VERIFY,
    ...(trustAnchors === undefined
      ? {}
      : { trust: { user_anchors: trustAnchors, verify_trust_list: true } }),
  };
}

/**
 * Only to learn whether an input carries a manifest and whether it parses: validating it here
 * would hash the whole file once more, and c2pa-node validates it again when it becomes the
 * parent ingredient.
 */
export const PROBE_SETTINGS: object = {
  verify: { ...OFFLINE_VERIFY, verify_after_reading: false },
};

/**
 * The automatic thumbnail costs most of a large photo's signing time and adds nothing to
 * provenance (README.md#c2pa-provenance).
 */
export const BUILDER_SETTINGS: object = {
  builder: { thumbnail: { enabled: false } },
  verify: { ...OFFLINE_VERIFY, verify_after_sign: false },
};
