import { type ProblemType, problemTypes } from '@hallmark/schemas';
import type { CID } from 'multiformats/cid';
import { parseCid } from '../cid.ts';
import { assertEntryName, lastSegment } from '../content-path.ts';
import { IpfsError, isIpfsError } from '../errors.ts';
import type { IpfsStore } from '../ipfs-store.ts';
import { contentTypeOfName } from './content-type.ts';
import { chooseFormat, RAW_BLOCK_TYPE } from './response-format.ts';

export interface GatewayRequest {
  /**
   * What follows `/ipfs/` in the URL, as sent (percent-encoded): `<cid>` or `<cid>/<path>`. Each
   * segment is decoded here, so an encoded `/` stays inside its name (and is refused there).
   */
  readonly cidAndPath: string;
  /** The request's `Accept` header. */
  readonly accept?: string | undefined;
  /** The `format` query parameter (`raw`); it wins over `Accept`. */
  readonly format?: string | undefined;
}

export interface GatewayResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

/** A year: what IPFS gateways send for `/ipfs/` content, which can never change. */
const IMMUTABLE = 'public, max-age=29030400, immutable';

/** Public, content-addressed data: any origin may read it (trustless clients run in browsers). */
const SHARED_HEADERS = {
  'access-control-allow-origin': '*',
  'x-content-type-options': 'nosniff',
  vary: 'Accept',
} as const;

/**
 * The API's gateway for the store, framework-free so it can be mounted under any prefix: the API
 * routes `GET <prefix>/ipfs/*` here and sends back what it returns.
 *
 * - Raw blocks (`Accept: application/vnd.ipld.raw` or `?format=raw`) as the Trustless Gateway
 *   spec says: `/ipfs/<cid>` only, the body hashing to the CID.
 * - Otherwise the content: a JSON document as `application/json`, a file with a type from its
 *   name, and the file at `<dirCid>/<path>`; so `ipfsUrl` and the NFT image resolve on one
 *   machine with no other IPFS software.
 *
 * Client errors come back as RFC 9457 problems (400 malformed CID or path, 404 unknown content,
 * 503 node unreachable). Anything else is thrown for the API's own error handling to log.
 */
export async function handleGatewayRequest(
  store: IpfsStore,
  request: GatewayRequest,
): Promise<GatewayResponse> {
  const format = chooseFormat(request.accept, request.format);
  if (format.kind === 'unsupported') {
    return problem(
      problemTypes.validationError,
      `${format.asked} is not served here; ask for application/vnd.ipld.raw (format=raw) or the content itself.`,
    );
  }
  try {
    const { cid, path } = splitContentPath(request.cidAndPath);
    if (format.kind === 'raw') {
      if (path !== '') {
        return problem(
          problemTypes.validationError,
          'Raw blocks are served for /ipfs/{cid} only, without a path (Trustless Gateway spec).',
        );
      }
      return await rawBlock(store, cid);
    }
    return await content(store, cid, path);
  } catch (error) {
    if (isIpfsError(error, 'invalid_cid') || isIpfsError(error, 'invalid_path')) {
      return problem(problemTypes.validationError, error.message);
    }
    if (isIpfsError(error, 'ipfs_not_found')) {
      return problem(
        problemTypes.notFound,
        `No content at /ipfs/${request.cidAndPath.slice(0, 300)} on this node.`,
      );
    }
    if (isIpfsError(error, 'ipfs_unreachable')) {
      return problem(problemTypes.serviceUnavailable, 'The IPFS node cannot be reached.');
    }
    throw error;
  }
}

function splitContentPath(cidAndPath: string): { cid: CID; path: string } {
  const [cidText = '', ...rest] = cidAndPath.split('/').filter((segment) => segment !== '');
  const names = rest.map((segment) => assertEntryName(decodeSegment(segment)));
  return { cid: parseCid(decodeSegment(cidText)), path: names.join('/') };
}

/** A malformed escape (`%zz`, or bytes that are not UTF-8) is the client's error: a 400. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch (error) {
    if (!(error instanceof URIError)) throw error;
    throw new IpfsError(
      'invalid_path',
      'The path holds a malformed percent-escape (such as %zz) or bytes that are not UTF-8.',
    );
  }
}

async function rawBlock(store: IpfsStore, cid: CID): Promise<GatewayResponse> {
  const body = await store.getBlock(cid);
  return {
    status: 200,
    headers: {
      ...SHARED_HEADERS,
      'content-type': RAW_BLOCK_TYPE,
      'content-length': String(body.byteLength),
      'content-disposition': `attachment; filename="${cid}.bin"`,
      'cache-control': IMMUTABLE,
      etag: `"${cid}.raw"`,
      'x-ipfs-path': `/ipfs/${cid}`,
      'x-ipfs-roots': cid.toString(),
    },
    body,
  };
}

async function content(store: IpfsStore, cid: CID, path: string): Promise<GatewayResponse> {
  const resolved = await store.resolvePath(cid, path);
  if (resolved.kind === 'directory') {
    return problem(
      problemTypes.validationError,
      'This is a directory; directory listings are not served. Add the file name to the path.',
    );
  }
  const body = await store.cat(resolved.cid);
  const contentType =
    resolved.kind === 'json' ? 'application/json' : contentTypeOfName(lastSegment(path));
  return {
    status: 200,
    headers: {
      ...SHARED_HEADERS,
      'content-type': contentType,
      'content-length': String(body.byteLength),
      'cache-control': IMMUTABLE,
      etag: `"${resolved.cid}"`,
      'x-ipfs-path': path === '' ? `/ipfs/${cid}` : `/ipfs/${cid}/${path}`,
    },
    body,
  };
}

function problem(type: ProblemType, detail: string): GatewayResponse {
  const body = new TextEncoder().encode(
    JSON.stringify({ type: type.type, title: type.title, status: type.status, detail }),
  );
  return {
    status: type.status,
    headers: {
      ...SHARED_HEADERS,
      'content-type': 'application/problem+json',
      'content-length': String(body.byteLength),
      // A block missing now may be written a moment later by the worker.
      'cache-control': 'no-store',
    },
    body,
  };
}
