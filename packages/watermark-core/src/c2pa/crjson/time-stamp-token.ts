// An RFC 3161 time-stamp token is CMS SignedData whose content is a TSTInfo: its genTime is the
// time the authority vouches for, and the signer info names the authority's certificate among
// those the token carries.
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

export interface TimeStampDescription {
  readonly time: Date;
  /** DER of the authority's signing certificate, when the token carries it. */
  readonly authorityCertificate: Uint8Array | null;
}

/** Null when the bytes are not a time-stamp token. */
export function describeTimeStampToken(token: Uint8Array): TimeStampDescription | null {
  try {
    const contentInfo = pkijs.ContentInfo.fromBER(token);
    const signedData = new pkijs.SignedData({ schema: contentInfo.content });
    const content = signedData.encapContentInfo.eContent;
    if (content === undefined) return null;
    const tstInfo = pkijs.TSTInfo.fromBER(content.getValue());
    return { time: tstInfo.genTime, authorityCertificate: authorityCertificate(signedData) };
  } catch {
    return null;
  }
}

function authorityCertificate(signedData: pkijs.SignedData): Uint8Array | null {
  const sid: unknown = signedData.signerInfos[0]?.sid;
  const certificates = (signedData.certificates ?? []).filter(
    (candidate): candidate is pkijs.Certificate => candidate instanceof pkijs.Certificate,
  );
  const found = certificates.find((certificate) =>
    sid instanceof pkijs.IssuerAndSerialNumber
      ? certificate.issuer.isEqual(sid.issuer) && certificate.serialNumber.isEqual(sid.serialNumber)
      : sid instanceof asn1js.OctetString && subjectKeyIdentifierIs(certificate, sid),
  );
  return found === undefined ? null : new Uint8Array(found.toSchema().toBER(false));
}

function subjectKeyIdentifierIs(certificate: pkijs.Certificate, id: asn1js.OctetString): boolean {
  const extension = certificate.extensions?.find((candidate) => candidate.extnID === '2.5.29.14');
  const parsed: unknown = extension?.parsedValue;
  return parsed instanceof asn1js.OctetString && parsed.isEqual(id);
}
