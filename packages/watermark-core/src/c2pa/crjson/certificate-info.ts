// A certificate as crJSON describes it: serial number, issuer and subject by their usual
// attribute names, validity. pkijs reads the DER, so names keep their attribute types (node's
// X509Certificate prints them as one escaped string).
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { JsonObject } from './json-value.ts';

/** Attribute types of a distinguished name that crJSON names. */
const NAME_ATTRIBUTES: ReadonlyMap<string, string> = new Map([
  ['2.5.4.6', 'C'],
  ['2.5.4.8', 'ST'],
  ['2.5.4.7', 'L'],
  ['2.5.4.10', 'O'],
  ['2.5.4.11', 'OU'],
  ['2.5.4.3', 'CN'],
  ['1.2.840.113549.1.9.1', 'E'],
  ['2.5.4.97', '2.5.4.97'],
]);

export interface CertificateDescription {
  /** crJSON's `certificateInfo`. */
  readonly info: JsonObject;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly subjectCommonName: string | null;
}

/** Null when the bytes are not an X.509 certificate. */
export function describeCertificate(der: Uint8Array): CertificateDescription | null {
  let certificate: pkijs.Certificate;
  try {
    certificate = pkijs.Certificate.fromBER(der);
  } catch {
    return null;
  }
  const notBefore = certificate.notBefore.value;
  const notAfter = certificate.notAfter.value;
  const subject = nameOf(certificate.subject);
  return {
    info: {
      serialNumber: serialHex(certificate.serialNumber),
      issuer: nameOf(certificate.issuer),
      subject,
      validity: { notBefore: rfc3339(notBefore), notAfter: rfc3339(notAfter) },
    },
    notBefore,
    notAfter,
    subjectCommonName: typeof subject.CN === 'string' ? subject.CN : null,
  };
}

/** Lower-case hexadecimal without leading zeros, as c2pa-rs writes serial numbers. */
function serialHex(serial: asn1js.Integer): string {
  const hex = Buffer.from(serial.valueBlock.valueHexView).toString('hex').replace(/^0+/, '');
  return hex === '' ? '0' : hex;
}

function nameOf(name: pkijs.RelativeDistinguishedNames): JsonObject {
  const out: JsonObject = {};
  for (const attribute of name.typesAndValues) {
    const key = NAME_ATTRIBUTES.get(attribute.type);
    const value: unknown = attribute.value.valueBlock.value;
    if (key !== undefined && typeof value === 'string') out[key] = value;
  }
  return out;
}

/** RFC 3339 in UTC to the second: certificate times have no fractions. */
export function rfc3339(time: Date): string {
  return time.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
