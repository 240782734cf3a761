// Issues a development certificate authority in-process: a P-256 root and one end-entity signing
// certificate with the profile C2PA validators require. Web Crypto makes the keys, pkijs encodes
// the X.509 structures; nothing is shelled out.
import { createHash, randomBytes, type webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

export const DEVELOPMENT_ROOT_COMMON_NAME = 'Hallmark Development Root CA - NOT FOR PRODUCTION';
export const DEVELOPMENT_SIGNER_COMMON_NAME = 'Hallmark Development Signer - NOT FOR PRODUCTION';
const DEVELOPMENT_ORGANIZATION = 'Hallmark (development identity)';

const ROOT_YEARS = 10;
const SIGNER_YEARS = 5;

/** PEM texts of a freshly issued development identity; the root's private key is not kept. */
export interface IssuedDevelopmentIdentity {
  readonly rootCertificatePem: string;
  /** End-entity certificate first, then the root: the order C2PA signers send. */
  readonly signerChainPem: string;
  /** PKCS#8 private key of the end-entity certificate. */
  readonly signerPrivateKeyPem: string;
}

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extendedKeyUsage: '2.5.29.37',
  subjectKeyIdentifier: '2.5.29.14',
  authorityKeyIdentifier: '2.5.29.35',
  emailProtection: '1.3.6.1.5.5.7.3.4',
  /** id-kp-documentSigning (RFC 9336), one of the EKUs the C2PA trust model accepts. */
  documentSigning: '1.3.6.1.5.5.7.3.36',
} as const;

export async function issueDevelopmentIdentity(
  now: Date = new Date(),
): Promise<IssuedDevelopmentIdentity> {
  const { subtle } = globalThis.crypto;
  const rootKeys = await subtle.generateKey(EC_P256, true, ['sign', 'verify']);
  const signerKeys = await subtle.generateKey(EC_P256, true, ['sign', 'verify']);
  const rootKeyId = await keyIdentifier(rootKeys.publicKey);

  const root = await issueCertificate({
    subject: DEVELOPMENT_ROOT_COMMON_NAME,
    issuer: DEVELOPMENT_ROOT_COMMON_NAME,
    publicKey: rootKeys.publicKey,
    issuerPrivateKey: rootKeys.privateKey,
    issuerKeyId: rootKeyId,
    profile: 'root',
    notBefore: now,
    notAfter: yearsAfter(now, ROOT_YEARS),
  });
  const signer = await issueCertificate({
    subject: DEVELOPMENT_SIGNER_COMMON_NAME,
    issuer: DEVELOPMENT_ROOT_COMMON_NAME,
    publicKey: signerKeys.publicKey,
    issuerPrivateKey: rootKeys.privateKey,
    issuerKeyId: rootKeyId,
    profile: 'signer',
    notBefore: now,
    notAfter: yearsAfter(now, SIGNER_YEARS),
  });
  const rootCertificatePem = pem('CERTIFICATE', root);
  return {
    rootCertificatePem,
    signerChainPem: pem('CERTIFICATE', signer) + rootCertificatePem,
    signerPrivateKeyPem: pem('PRIVATE KEY', await subtle.exportKey('pkcs8', signerKeys.privateKey)),
  };
}

export interface CertificateParams {
  readonly subject: string;
  readonly issuer: string;
  readonly publicKey: webcrypto.CryptoKey;
  readonly issuerPrivateKey: webcrypto.CryptoKey;
  readonly issuerKeyId: Uint8Array;
  readonly profile: 'root' | 'signer';
  readonly notBefore: Date;
  readonly notAfter: Date;
}

function yearsAfter(date: Date, years: number): Date {
  const after = new Date(date);
  after.setUTCFullYear(after.getUTCFullYear() + years);
  return after;
}

/**
 * One X.509 certificate (DER) with the profile C2PA validators require of a root or a signer.
 * Exported for the tests that need certificates for keys made elsewhere (an HSM's) or with
 * short lives.
 */
export async function issueCertificate(params: CertificateParams): Promise<ArrayBuffer> {
  const certificate = new pkijs.Certificate();
  certificate.version = 2; // X.509 v3: needed for extensions
  certificate.serialNumber = new asn1js.Integer({ valueHex: positiveSerial() });
  certificate.subject = distinguishedName(params.subject);
  certificate.issuer = distinguishedName(params.issuer);
  // A minute of slack so a clock slightly behind the signer's still accepts the certificate.
  certificate.notBefore.value = new Date(params.notBefore.getTime() - 60_000);
  certificate.notAfter.value = params.notAfter;
  await certificate.subjectPublicKeyInfo.importKey(params.publicKey);
  certificate.extensions = [
    ...profileExtensions(params.profile),
    extension(
      OID.subjectKeyIdentifier,
      false,
      new asn1js.OctetString({ valueHex: await keyIdentifier(params.publicKey) }),
    ),
    extension(
      OID.authorityKeyIdentifier,
      false,
      new pkijs.AuthorityKeyIdentifier({
        keyIdentifier: new asn1js.OctetString({ valueHex: params.issuerKeyId }),
      }).toSchema(),
    ),
  ];
  await certificate.sign(params.issuerPrivateKey, 'SHA-256');
  return certificate.toSchema().toBER(false);
}

/**
 * The root may only sign certificates; the signer only signatures, with the document-signing
 * purposes C2PA checks. Self-signed or EKU-less signing certificates are refused by c2pa-node.
 */
function profileExtensions(profile: 'root' | 'signer'): pkijs.Extension[] {
  if (profile === 'root') {
    return [
      extension(
        OID.basicConstraints,
        true,
        new pkijs.BasicConstraints({ cA: true, pathLenConstraint: 0 }).toSchema(),
      ),
      // keyCertSign (bit 5) and cRLSign (bit 6): 0b0000_0110, lowest bit unused.
      extension(
        OID.keyUsage,
        true,
        new asn1js.BitString({ valueHex: new Uint8Array([0x06]), unusedBits: 1 }),
      ),
    ];
  }
  return [
    extension(OID.basicConstraints, true, new pkijs.BasicConstraints({ cA: false }).toSchema()),
    // digitalSignature (bit 0): 0b1000_0000, the seven low bits unused.
    extension(
      OID.keyUsage,
      true,
      new asn1js.BitString({ valueHex: new Uint8Array([0x80]), unusedBits: 7 }),
    ),
    extension(
      OID.extendedKeyUsage,
      false,
      new pkijs.ExtKeyUsage({
        keyPurposes: [OID.emailProtection, OID.documentSigning],
      }).toSchema(),
    ),
  ];
}

function extension(
  extnID: string,
  critical: boolean,
  value: { toBER(sizeOnly?: boolean): ArrayBuffer },
): pkijs.Extension {
  return new pkijs.Extension({ extnID, critical, extnValue: value.toBER(false) });
}

/**
 * `O=..., CN=...` as two single-valued RDNs, encoded by hand: pkijs would put both attributes in
 * one multi-valued RDN (`O=... + CN=...`), which tools print and match poorly.
 */
function distinguishedName(commonName: string): pkijs.RelativeDistinguishedNames {
  const rdn = (type: string, value: string) =>
    new asn1js.Set({
      value: [
        new asn1js.Sequence({
          value: [new asn1js.ObjectIdentifier({ value: type }), new asn1js.Utf8String({ value })],
        }),
      ],
    });
  const name = new asn1js.Sequence({
    value: [rdn(OID.organization, DEVELOPMENT_ORGANIZATION), rdn(OID.commonName, commonName)],
  });
  return new pkijs.RelativeDistinguishedNames({ schema: asn1js.fromBER(name.toBER(false)).result });
}

/** RFC 5280 method 1: SHA-1 of the subject public key bit string. */
export async function keyIdentifier(publicKey: webcrypto.CryptoKey): Promise<Uint8Array> {
  const raw = await globalThis.crypto.subtle.exportKey('raw', publicKey);
  return createHash('sha1').update(new Uint8Array(raw)).digest();
}

/**
 * A certificate serial from 16 random bytes: DER integers are signed and minimal, so the first
 * byte must be 0x01-0x7f. Clearing only the top bit is not enough: a first byte of 0x00 followed
 * by a byte below 0x80 is a non-minimal encoding that OpenSSL refuses ("illegal padding").
 * Forcing 0b01xx_xxxx keeps 126 random bits.
 */
export function positiveSerial(random: Uint8Array = randomBytes(16)): Uint8Array {
  const serial = Uint8Array.from(random);
  serial[0] = ((serial[0] ?? 0) & 0x3f) | 0x40;
  return serial;
}

export function pem(label: string, der: ArrayBuffer): string {
  const lines =
    Buffer.from(der)
      .toString('base64')
      .match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
