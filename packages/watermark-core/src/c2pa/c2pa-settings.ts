// Settings handed to c2pa-node. Reading and signing never reach the network on their own: remote
// manifests and OCSP responses are not fetched (a verifier must not be steered into requests by
// the file it checks). Only a configured timestamp authority is contacted, at signing time.

const OFFLINE_VERIFY = {
  verify_trust: true,
  remote_manifest_fetch: false,
  ocsp_fetch: false,
} as const;

/**
 * Signer trust rests on the configured PEM bundles alone: the adopted trust list (c2pa-node's
 * trust anchors) and the operator's own (its user anchors); without either, every signer is
 * untrusted. A time-stamp's authority is trusted when it chains to either, or to a public root
 * c2pa-node carries itself.
 */
export function readerSettings(anchors: {
  readonly trustAnchors?: string | undefined;
  readonly trustList?: string | undefined;
}): object {
  const { trustAnchors, trustList } = anchors;
  if (trustAnchors === undefined && trustList === undefined) return { verify: OFFLINE_VERIFY };
  return {
    verify: OFFLINE_VERIFY,
    trust: {
      ...(trustList === undefined ? {} : { trust_anchors: trustList }),
      ...(trustAnchors === undefined ? {} : { user_anchors: trustAnchors }),
      verify_trust_list: true,
    },
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
 *
 * `core` keeps signing a large video within a few tens of MB (measured in README.md): with the
 * media data hashed as a Merkle tree of 1 MB chunks, c2pa-rs hashes and later validates an ISO
 * BMFF file chunk by chunk instead of loading its `mdat` whole, and its working copy spills to a
 * temporary file past 8 MB instead of staying in memory up to its default 512 MB.
 */
export const BUILDER_SETTINGS: object = {
  core: { backing_store_memory_threshold_in_mb: 8, merkle_tree_chunk_size_in_kb: 1024 },
  builder: { thumbnail: { enabled: false } },
  verify: { ...OFFLINE_VERIFY, verify_after_sign: false },
};
