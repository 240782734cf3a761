// A private key inside a PKCS#11 token (an HSM, SoftHSM2, a smart card) that signs C2PA claims
// without ever leaving it: the process holds a session and a handle, never the key's bytes.
import { createHash } from 'node:crypto';
import pkcs11js from 'pkcs11js';
import { SignerConfigurationError, TokenUnavailableError } from '../errors.ts';
import type { SigningAlgorithm } from '../signing-algorithms.ts';
import type { Pkcs11Location } from './pkcs11-uri.ts';

/** DER of the named-curve OIDs PKCS#11 stores in CKA_EC_PARAMS. */
const CURVES: Record<string, SigningAlgorithm> = {
  '06082a8648ce3d030107': 'es256', // prime256v1 (P-256)
  '06052b81040022': 'es384', // secp384r1 (P-384)
};

/**
 * Return values that mean the token went away or the session broke: a later attempt, after the
 * token is back, may succeed, so the job is retried rather than failed for good.
 */
const TOKEN_LOST = new Set([
  pkcs11js.CKR_DEVICE_REMOVED,
  pkcs11js.CKR_OBJECT_HANDLE_INVALID,
  pkcs11js.CKR_KEY_HANDLE_INVALID,
  pkcs11js.CKR_DEVICE_ERROR,
  pkcs11js.CKR_TOKEN_NOT_PRESENT,
  pkcs11js.CKR_SESSION_HANDLE_INVALID,
  pkcs11js.CKR_SESSION_CLOSED,
  pkcs11js.CKR_USER_NOT_LOGGED_IN,
  pkcs11js.CKR_DEVICE_MEMORY,
]);

export interface Pkcs11Key {
  readonly algorithm: SigningAlgorithm;
  /** Signs the bytes: raw r||s (ECDSA). */
  sign(toBeSigned: Uint8Array): Promise<Uint8Array>;
  close(): void;
}

/**
 * Opens the module, logs in to the token and finds the key. `variable` names the setting in
 * errors, so a locked, missing or misnamed token fails start-up saying what to fix.
 */
export function openPkcs11Key(location: Pkcs11Location, variable: string): Pkcs11Key {
  const fail = (why: string, cause?: unknown): never => {
    throw new SignerConfigurationError(`${variable}: ${why}`, { cause });
  };
  const module = new pkcs11js.PKCS11();
  try {
    module.load(location.modulePath);
  } catch (error) {
    return fail(`the PKCS#11 module ${location.modulePath} cannot be loaded`, error);
  }
  try {
    module.C_Initialize();
  } catch (error) {
    if (codeOf(error) !== pkcs11js.CKR_CRYPTOKI_ALREADY_INITIALIZED) {
      return fail('the PKCS#11 module does not initialise', error);
    }
  }
  try {
    const connection = connect(module, location, fail);
    const algorithm = algorithmOf(module, connection.session, connection.key, fail);
    return tokenKey(module, algorithm, connection, () =>
      connect(module, location, (why, cause) => {
        throw new TokenUnavailableError(`the PKCS#11 token cannot sign now: ${why}`, { cause });
      }),
    );
  } catch (error) {
    finalize(module);
    throw error;
  }
}

interface Connection {
  readonly session: Buffer;
  readonly key: Buffer;
}

/** A logged-in session on the token and the key's handle in it. */
function connect(
  module: pkcs11js.PKCS11,
  location: Pkcs11Location,
  fail: (why: string, cause?: unknown) => never,
): Connection {
  const slot = findSlot(module, location.token) ?? fail(`no token labelled "${location.token}"`);
  const session = module.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION);
  if (location.pin !== undefined) {
    try {
      module.C_Login(session, pkcs11js.CKU_USER, location.pin);
    } catch (error) {
      if (codeOf(error) !== pkcs11js.CKR_USER_ALREADY_LOGGED_IN) {
        closeQuietly(module, session);
        fail(`logging in to the token failed (${messageOf(error)}): check the PIN`, error);
      }
    }
  }
  const key = findPrivateKey(module, session, location);
  if (key === undefined) {
    closeQuietly(module, session);
    return fail('no such private key on the token');
  }
  return { session, key };
}

function tokenKey(
  module: pkcs11js.PKCS11,
  algorithm: SigningAlgorithm,
  first: Connection,
  reconnect: () => Connection,
): Pkcs11Key {
  // A lost token leaves the session and handles dead: the next signature connects anew, so a
  // retried job signs once the token is back.
  let connection: Connection | null = first;
  // One operation at a time on a session (PKCS#11 keeps one active signing operation per session).
  let queue: Promise<unknown> = Promise.resolve();
  const signOnce = async (data: Uint8Array): Promise<Uint8Array> => {
    const { mechanism, input, length } = signingStep(algorithm, data);
    const current = connection ?? reconnectOrUnavailable(reconnect);
    connection = current;
    try {
      module.C_SignInit(current.session, mechanism, current.key);
      return new Uint8Array(await module.C_SignAsync(current.session, input, Buffer.alloc(length)));
    } catch (error) {
      const code = codeOf(error);
      if (code !== undefined && TOKEN_LOST.has(code)) {
        closeQuietly(module, current.session);
        connection = null;
        throw new TokenUnavailableError(`the PKCS#11 token cannot sign now (${messageOf(error)})`, {
          cause: error,
        });
      }
      throw error;
    }
  };
  return {
    algorithm,
    sign(data) {
      const result = queue.then(() => signOnce(data));
      queue = result.catch(() => undefined);
      return result;
    },
    close() {
      finalize(module);
    },
  };
}

function reconnectOrUnavailable(reconnect: () => Connection): Connection {
  try {
    return reconnect();
  } catch (error) {
    if (error instanceof TokenUnavailableError) throw error;
    throw new TokenUnavailableError(`the PKCS#11 token cannot sign now (${messageOf(error)})`, {
      cause: error,
    });
  }
}

function closeQuietly(module: pkcs11js.PKCS11, session: Buffer): void {
  try {
    module.C_CloseSession(session);
  } catch {
    // The session is already gone with its token.
  }
}

/** What C_Sign is given: ECDSA signs a digest made here. */
function signingStep(
  algorithm: SigningAlgorithm,
  data: Uint8Array,
): { mechanism: pkcs11js.Mechanism; input: Buffer; length: number } {
  switch (algorithm) {
    case 'es256':
      return {
        mechanism: { mechanism: pkcs11js.CKM_ECDSA },
        input: digest('sha256', data),
        length: 64,
      };
    case 'es384':
      return {
        mechanism: { mechanism: pkcs11js.CKM_ECDSA },
        input: digest('sha384', data),
        length: 96,
      };
    default:
      throw new SignerConfigurationError(`a PKCS#11 key cannot sign ${algorithm} here`);
  }
}

function digest(hash: 'sha256' | 'sha384', data: Uint8Array): Buffer {
  return createHash(hash).update(data).digest();
}

function findSlot(module: pkcs11js.PKCS11, label: string | undefined): Buffer | undefined {
  for (const slot of module.C_GetSlotList(true)) {
    if (label === undefined || module.C_GetTokenInfo(slot).label.trim() === label) return slot;
  }
  return undefined;
}

function findPrivateKey(
  module: pkcs11js.PKCS11,
  session: Buffer,
  location: Pkcs11Location,
): Buffer | undefined {
  const template: pkcs11js.Template = [
    { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY },
  ];
  if (location.object !== undefined)
    template.push({ type: pkcs11js.CKA_LABEL, value: location.object });
  if (location.id !== undefined)
    template.push({ type: pkcs11js.CKA_ID, value: Buffer.from(location.id) });
  module.C_FindObjectsInit(session, template);
  try {
    const found = module.C_FindObjects(session, 2);
    if (found.length > 1) {
      throw new SignerConfigurationError('more than one private key matches: add id= or object=');
    }
    return found[0];
  } finally {
    module.C_FindObjectsFinal(session);
  }
}

function algorithmOf(
  module: pkcs11js.PKCS11,
  session: Buffer,
  key: Buffer,
  fail: (why: string) => never,
): SigningAlgorithm {
  const [type] = module.C_GetAttributeValue(session, key, [{ type: pkcs11js.CKA_KEY_TYPE }]);
  const keyType = Buffer.isBuffer(type?.value) ? type.value.readUInt32LE(0) : -1;
  // RSA-PSS through a token is not offered until it is tested against one.
  if (keyType !== pkcs11js.CKK_EC) return fail('the key is not an EC key (P-256 or P-384)');
  const [params] = module.C_GetAttributeValue(session, key, [{ type: pkcs11js.CKA_EC_PARAMS }]);
  const curve = Buffer.isBuffer(params?.value) ? params.value.toString('hex') : '';
  return CURVES[curve] ?? fail('the EC key is on a curve C2PA does not sign with (P-256 or P-384)');
}

function finalize(module: pkcs11js.PKCS11): void {
  try {
    module.C_Finalize();
  } catch {
    // Already finalised, or the module is gone: nothing is held any more either way.
  }
}

function codeOf(error: unknown): number | undefined {
  return error instanceof pkcs11js.Pkcs11Error ? error.code : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
