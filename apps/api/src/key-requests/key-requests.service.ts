import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type HallmarkConfig, type Logger } from '@hallmark/config';
import {
  collectApiKey,
  createKeyRequest,
  findKeyRequestByToken,
  SealedKeyUnreadableError,
} from '@hallmark/db';
import {
  CONFIG,
  type KeyRequestAddresses,
  keyRequestAddresses,
  keyRequestLinks,
  LOGGER,
  PrismaService,
} from '@hallmark/runtime';
import {
  type KeyRequestAccepted,
  type KeyRequestCreate,
  type KeyRequestKey,
  type KeyRequestStatus,
  problemTypes,
} from '@hallmark/schemas';
import { Inject, Injectable } from '@nestjs/common';
import { ProblemException } from '../problem/problem.exception.ts';
import { unixSeconds } from '../time/unix-seconds.ts';
import { addBusinessDays } from './business-days.ts';
import { KeyRequestMail } from './key-request-mail.ts';
import { KeyRequestSecrets } from './key-request-secrets.ts';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * How a company gets a key: it asks (`POST /key-requests`), the operators answer within
 * two business days, and the requester follows the request through a private link. Approval
 * makes the key; the requester collects it there with a POST, which shows it once.
 */
@Injectable()
export class KeyRequestsService {
  readonly #addresses: KeyRequestAddresses;

  constructor(
    @Inject(CONFIG) config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly prisma: PrismaService,
    private readonly mail: KeyRequestMail,
    private readonly secrets: KeyRequestSecrets,
  ) {
    this.#addresses = keyRequestAddresses(config);
  }

  async create(request: KeyRequestCreate): Promise<KeyRequestAccepted> {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const dueAt = addBusinessDays(now, 2);
    if (request.fax !== undefined && request.fax !== '') {
      // The honeypot: answered like any request, so a bot learns nothing, and dropped.
      this.logger.info({ company: request.companyName }, 'key request dropped (honeypot filled)');
      return this.#accepted(randomUUID(), token, dueAt);
    }
    const row = await createKeyRequest(this.prisma.client, {
      companyName: request.companyName,
      purpose: request.purpose,
      contactName: request.contactName,
      contactEmail: request.contactEmail,
      website: request.website ?? null,
      expectedVolume: request.expectedVolume ?? null,
      tokenHash: hashToken(token),
      sealedToken: this.secrets.seal(token),
      dueAt,
    });
    const accepted = this.#accepted(row.id, token, dueAt);
    await this.mail.received(row, accepted.statusPage ?? accepted.statusUrl);
    return accepted;
  }

  async status(id: string, token: string): Promise<KeyRequestStatus> {
    const row = await findKeyRequestByToken(this.prisma.client, id, hashToken(token));
    if (row === null) throw ProblemException.notFound('No key request at this link.');
    const base = {
      requestId: row.id,
      status: row.status,
      companyName: row.companyName,
      submittedAt: unixSeconds(row.createdAt),
      dueAt: unixSeconds(row.dueAt),
      ...(row.decidedAt === null ? {} : { decidedAt: unixSeconds(row.decidedAt) }),
      ...(row.reason === null ? {} : { reason: row.reason }),
    };
    if (row.status !== 'approved') return base;
    // Reading never hands the key out: a mail scanner following the link would collect it.
    const waiting =
      row.apiKey === null || (row.sealedApiKey !== null && row.apiKey.revokedAt === null);
    return {
      ...base,
      ...(waiting ? { keyReady: true } : {}),
      ...(row.apiKey === null ? {} : { apiKeyPrefix: row.apiKey.prefix }),
    };
  }

  /** The key of an approved request, shown once (`POST /key-requests/{id}/key`), then erased. */
  async collect(id: string, token: string): Promise<KeyRequestKey> {
    const row = await findKeyRequestByToken(this.prisma.client, id, hashToken(token));
    if (row === null) throw ProblemException.notFound('No key request at this link.');
    const key = await collectApiKey(this.prisma.client, row.id, this.secrets).catch(
      (error: unknown) => {
        if (!(error instanceof SealedKeyUnreadableError)) throw error;
        this.logger.error({ requestId: row.id, err: error.message }, 'sealed api key unreadable');
        throw new ProblemException(
          problemTypes.keyNotAvailable,
          'The key of this request can no longer be read (the service secret changed). Ask the operators to re-issue it.',
        );
      },
    );
    if (key === null) {
      throw new ProblemException(
        problemTypes.keyNotAvailable,
        row.status !== 'approved'
          ? `The request is ${row.status}: there is no key to collect.`
          : row.apiKey?.revokedAt
            ? 'The key of this request was revoked by the operators; it cannot be collected. Ask them for a new one.'
            : 'The key of this request was collected already; only its prefix is kept. Ask the operators for a new one.',
      );
    }
    this.logger.info({ requestId: row.id, prefix: key.prefix }, 'api key collected');
    return { apiKey: key.plaintext, apiKeyPrefix: key.prefix, apiUrl: this.#addresses.api };
  }

  #accepted(id: string, token: string, dueAt: Date): KeyRequestAccepted {
    return {
      status: 'pending',
      requestId: id,
      ...keyRequestLinks(this.#addresses, id, token),
      dueAt: unixSeconds(dueAt),
    };
  }
}
