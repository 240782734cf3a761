import type { Logger } from '@hallmark/config';
import type { ManifestSigner } from '@hallmark/watermark-core';

/**
 * The worker's C2PA signing identity, replaceable while it runs: a rotation loads the
 * configured certificate and key again (on SIGHUP) and new jobs sign with them. A job takes the
 * identity when it starts and keeps it to the end, so jobs in flight finish with the one they
 * began with, and outputs signed before keep validating (their signatures never change). A
 * rotation that fails to load keeps the current identity and says why.
 */
export class SigningIdentity {
  #current: ManifestSigner;

  constructor(
    initial: ManifestSigner,
    private readonly load: () => Promise<ManifestSigner>,
    private readonly logger: Logger,
  ) {
    this.#current = initial;
  }

  current(): ManifestSigner {
    return this.#current;
  }

  /** Loads the configured identity again; resolves to whether it now signs with the new one. */
  async rotate(): Promise<boolean> {
    try {
      const next = await this.load();
      // The previous signer is not closed: jobs that began with it may still be signing, and
      // a token's signers share its module.
      this.#current = next;
      const { identity } = next;
      this.logger.info(
        { subject: identity.subject, issuer: identity.issuer, notAfter: identity.notAfter },
        'C2PA signer rotated',
      );
      return true;
    } catch (error) {
      this.logger.error(
        { err: error, subject: this.#current.identity.subject },
        'C2PA signer rotation failed; still signing with the current identity',
      );
      return false;
    }
  }

  /** Rotates on SIGHUP, as long as the returned function has not been called. */
  rotateOnHangup(): () => void {
    const onHangup = () => {
      void this.rotate();
    };
    process.on('SIGHUP', onHangup);
    return () => process.off('SIGHUP', onHangup);
  }
}
