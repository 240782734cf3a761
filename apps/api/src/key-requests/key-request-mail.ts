import { type HallmarkConfig, type Logger } from '@hallmark/config';
import type { KeyRequest } from '@hallmark/db';
import {
  CONFIG,
  type KeyRequestAddresses,
  keyRequestAddresses,
  keyRequestDecisionMessage,
  keyRequestMailLink,
  LOGGER,
  MAILER,
  type Mailer,
} from '@hallmark/runtime';
import { Inject, Injectable } from '@nestjs/common';
import { KeyRequestSecrets } from './key-request-secrets.ts';

/**
 * The messages of the key request workflow. A message that cannot be sent is logged, never
 * fails the request: the requester holds the status link in the answer already.
 */
@Injectable()
export class KeyRequestMail {
  readonly #operator: string | undefined;
  readonly #console: string | undefined;
  readonly #addresses: KeyRequestAddresses;

  constructor(
    @Inject(CONFIG) config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(MAILER) private readonly mailer: Mailer,
    private readonly secrets: KeyRequestSecrets,
  ) {
    this.#operator = config.OPERATOR_EMAIL;
    this.#console = config.ADMIN_PUBLIC_URL?.replace(/\/+$/, '');
    this.#addresses = keyRequestAddresses(config);
  }

  async received(request: KeyRequest, statusUrl: string): Promise<void> {
    const due = request.dueAt.toISOString().slice(0, 10);
    await this.#send({
      to: request.contactEmail,
      subject: 'Your request for a Hallmark API key',
      // Nothing the requester wrote: anyone can type any address into the form, and this mail
      // must not carry their words (a name, a company, a link) to a stranger's inbox.
      text: [
        'Hello,',
        '',
        `we received a request for a Hallmark API key that gave this address as its contact, and will answer by ${due}.`,
        `Follow it here (keep this link private: the key will be shown there once): ${statusUrl}`,
        '',
        'If you did not ask for a key, ignore this mail: nothing happens without an answer from us.',
      ].join('\n'),
    });
    if (this.#operator !== undefined) {
      await this.#send({
        to: this.#operator,
        subject: `Key request from ${request.companyName} (due ${due})`,
        text: [
          `Company: ${request.companyName}`,
          `Contact: ${request.contactName} <${request.contactEmail}>`,
          `Website: ${request.website ?? '-'}`,
          `Expected volume: ${request.expectedVolume ?? '-'}`,
          '',
          request.purpose,
          '',
          ...(this.#console === undefined
            ? []
            : [`Decide in the console: ${this.#console}/key-requests`]),
          `Decide with: hallmark key-requests approve ${request.id}   (or reject ${request.id} --reason "...")`,
        ].join('\n'),
      });
    }
  }

  /** The answer; an approval repeats the status link, where the key waits. */
  async decided(request: KeyRequest): Promise<void> {
    await this.#send(keyRequestDecisionMessage(request, this.#statusLink(request)));
  }

  /** Undefined for a request made before its token was kept, or sealed under another secret. */
  #statusLink(request: KeyRequest): string | undefined {
    if (request.sealedToken === null) return undefined;
    try {
      return keyRequestMailLink(
        this.#addresses,
        request.id,
        this.secrets.open(request.sealedToken),
      );
    } catch (error) {
      this.logger.warn(
        { requestId: request.id, err: (error as Error).message },
        'status link unreadable',
      );
      return undefined;
    }
  }

  async #send(message: { to: string; subject: string; text: string }): Promise<void> {
    try {
      await this.mailer.send(message);
    } catch (error) {
      this.logger.warn({ to: message.to, err: (error as Error).message }, 'mail not sent');
    }
  }
}
