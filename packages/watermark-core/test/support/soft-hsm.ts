// A SoftHSM2 token for one test file: its own token folder (SOFTHSM2_CONF), initialised by
// softhsm2-util, with an EC key generated inside it (sensitive, never extractable) and a
// certificate for that key issued by a throwaway CA. scripts/ensure-softhsm.sh installs SoftHSM2.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pkcs11js from 'pkcs11js';
import { issueCertificate, keyIdentifier, pem } from '../../src/c2pa/dev-ca.ts';

export const SOFTHSM_MODULE = '/usr/lib/softhsm/libsofthsm2.so';
const TOKEN_LABEL = 'hallmark';
const KEY_LABEL = 'c2pa-signing';
const USER_PIN = '246810';

export interface SoftHsmToken {
  readonly dir: string;
  /** RFC 7512 URI of the signing key, the PIN in a file. */
  readonly uri: string;
  /** The same key with the PIN inline. */
  readonly uriWithPinValue: string;
  /** Signer certificate (for the token's key) then the CA's, PEM; written to `chainPath`. */
  readonly chainPem: string;
  readonly chainPath: string;
  /** The CA to trust the signatures with. */
  readonly rootPem: string;
  /**
   * Points this process's SoftHSM2 at this token's folder again (another token made later took
   * it over); the module reads it when next initialised.
   */
  select(): void;
  /** Deletes the token, as if the HSM were unplugged. */
  unplug(): Promise<void>;
  remove(): Promise<void>;
}

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/** The curves a token key is made on here: CKA_EC_PARAMS, the SPKI prefix, the point's size. */
const CURVES = {
  'P-256': {
    params: Buffer.from('06082a8648ce3d030107', 'hex'),
    spkiPrefix: Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex'),
    pointBytes: 65,
  },
  'P-384': {
    params: Buffer.from('06052b81040022', 'hex'),
    spkiPrefix: Buffer.from('3076301006072a8648ce3d020106052b81040022036200', 'hex'),
    pointBytes: 97,
  },
} as const;
export type TokenCurve = keyof typeof CURVES;

export async function createSoftHsmToken(curve: TokenCurve = 'P-256'): Promise<SoftHsmToken> {
  const dir = await mkdtemp(join(tmpdir(), 'hallmark-softhsm-'));
  const tokens = join(dir, 'tokens');
  await mkdir(tokens);
  const conf = join(dir, 'softhsm2.conf');
  await writeFile(
    conf,
    `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\n`,
  );
  // The module reads this when it is initialised, in this process and in softhsm2-util.
  process.env.SOFTHSM2_CONF = conf;
  await promisify(execFile)('softhsm2-util', [
    '--init-token',
    '--free',
    '--label',
    TOKEN_LABEL,
    '--so-pin',
    '13579111',
    '--pin',
    USER_PIN,
  ]);
  const point = generateKeyInside(curve);
  const chain = await certificateChainFor(curve, point);
  const chainPath = join(dir, 'chain.pem');
  await writeFile(chainPath, chain.chainPem);
  const pinPath = join(dir, 'pin');
  await writeFile(pinPath, `${USER_PIN}\n`);
  const base = `pkcs11:token=${TOKEN_LABEL};object=${KEY_LABEL};type=private?module-path=${SOFTHSM_MODULE}`;
  return {
    dir,
    uri: `${base}&pin-source=file:${pinPath}`,
    uriWithPinValue: `${base}&pin-value=${USER_PIN}`,
    chainPem: chain.chainPem,
    chainPath,
    rootPem: chain.rootPem,
    unplug: () => rm(tokens, { recursive: true, force: true }),
    select: () => {
      process.env.SOFTHSM2_CONF = conf;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** An EC key pair made by the token; returns the public point (uncompressed). */
function generateKeyInside(curve: TokenCurve): Buffer {
  const module = new pkcs11js.PKCS11();
  module.load(SOFTHSM_MODULE);
  module.C_Initialize();
  try {
    const slot = module
      .C_GetSlotList(true)
      .find((candidate) => module.C_GetTokenInfo(candidate).label.trim() === TOKEN_LABEL);
    if (slot === undefined) throw new Error('the SoftHSM token was not initialised');
    const session = module.C_OpenSession(
      slot,
      pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION,
    );
    module.C_Login(session, pkcs11js.CKU_USER, USER_PIN);
    const id = Buffer.from('01', 'hex');
    const keys = module.C_GenerateKeyPair(
      session,
      { mechanism: pkcs11js.CKM_EC_KEY_PAIR_GEN },
      [
        { type: pkcs11js.CKA_TOKEN, value: true },
        { type: pkcs11js.CKA_LABEL, value: KEY_LABEL },
        { type: pkcs11js.CKA_ID, value: id },
        { type: pkcs11js.CKA_EC_PARAMS, value: CURVES[curve].params },
        { type: pkcs11js.CKA_VERIFY, value: true },
      ],
      [
        { type: pkcs11js.CKA_TOKEN, value: true },
        { type: pkcs11js.CKA_PRIVATE, value: true },
        { type: pkcs11js.CKA_LABEL, value: KEY_LABEL },
        { type: pkcs11js.CKA_ID, value: id },
        { type: pkcs11js.CKA_SIGN, value: true },
        { type: pkcs11js.CKA_SENSITIVE, value: true },
        { type: pkcs11js.CKA_EXTRACTABLE, value: false },
      ],
    );
    const [attribute] = module.C_GetAttributeValue(session, keys.publicKey, [
      { type: pkcs11js.CKA_EC_POINT },
    ]);
    const encoded = attribute?.value;
    if (!Buffer.isBuffer(encoded)) throw new Error('the token gave no public point');
    // CKA_EC_POINT is the DER OCTET STRING holding the point: tag, length, then the point.
    return encoded.subarray(encoded.length - CURVES[curve].pointBytes);
  } finally {
    module.C_Finalize();
  }
}

async function certificateChainFor(
  curve: TokenCurve,
  point: Buffer,
): Promise<{ chainPem: string; rootPem: string }> {
  const { subtle } = globalThis.crypto;
  const now = new Date();
  const dayAfter = new Date(now.getTime() + 86_400_000);
  const rootKeys = await subtle.generateKey(EC_P256, true, ['sign', 'verify']);
  const rootKeyId = await keyIdentifier(rootKeys.publicKey);
  const tokenKey = await subtle.importKey(
    'spki',
    Buffer.concat([CURVES[curve].spkiPrefix, point]),
    { name: 'ECDSA', namedCurve: curve },
    true,
    ['verify'],
  );
  const root = await issueCertificate({
    subject: 'Hallmark HSM Test Root',
    issuer: 'Hallmark HSM Test Root',
    publicKey: rootKeys.publicKey,
    issuerPrivateKey: rootKeys.privateKey,
    issuerKeyId: rootKeyId,
    profile: 'root',
    notBefore: now,
    notAfter: dayAfter,
  });
  const signer = await issueCertificate({
    subject: 'Hallmark HSM Test Signer',
    issuer: 'Hallmark HSM Test Root',
    publicKey: tokenKey,
    issuerPrivateKey: rootKeys.privateKey,
    issuerKeyId: rootKeyId,
    profile: 'signer',
    notBefore: now,
    notAfter: dayAfter,
  });
  const rootPem = pem('CERTIFICATE', root);
  return { chainPem: pem('CERTIFICATE', signer) + rootPem, rootPem };
}

/** Whether the token hands out the private key's value (CKA_VALUE): it must not. */
export function privateKeyValueReadable(): boolean {
  const module = new pkcs11js.PKCS11();
  module.load(SOFTHSM_MODULE);
  module.C_Initialize();
  try {
    const [slot] = module.C_GetSlotList(true);
    if (slot === undefined) throw new Error('no token');
    const session = module.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION);
    module.C_Login(session, pkcs11js.CKU_USER, USER_PIN);
    module.C_FindObjectsInit(session, [
      { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY },
      { type: pkcs11js.CKA_LABEL, value: KEY_LABEL },
    ]);
    const [key] = module.C_FindObjects(session, 1);
    module.C_FindObjectsFinal(session);
    if (key === undefined) throw new Error('no key');
    try {
      module.C_GetAttributeValue(session, key, [{ type: pkcs11js.CKA_VALUE }]);
      return true;
    } catch (error) {
      if (
        error instanceof pkcs11js.Pkcs11Error &&
        error.code === pkcs11js.CKR_ATTRIBUTE_SENSITIVE
      ) {
        return false;
      }
      throw error;
    }
  } finally {
    module.C_Finalize();
  }
}
