// The human rendering of a signed report: one self-contained HTML page that shows what the
// report states and carries the signed report itself, verbatim, with how to check it. The page's
// text is not what is signed: the embedded report is, and the instructions say so.
import type { VerificationStatement } from '@hallmark/schemas';

export function reportHtml(statement: VerificationStatement, signedReport: string): string {
  // Embedded raw in a script block: a serialised report is base64url and member names only.
  if (/[<>&]/.test(signedReport)) throw new Error('a signed report never holds < > or &');
  const rows: Array<[string, string]> = [
    ['Verdict', statement.verdict],
    ['File', `SHA-256 ${statement.file.sha256}, ${statement.file.size} bytes`],
    ['Verified at', statement.verifiedAt],
    ['Report signed at', `${statement.issuedAt} (the service's clock)`],
    ['Service', `${statement.service.name} ${statement.service.version}, ${statement.service.url}`],
    ['Invisible mark', markText(statement)],
    ['Content', contentText(statement)],
    ['C2PA manifest', manifestText(statement)],
    ...publishedRows(statement),
  ];
  const warning = statement.reportKey.development
    ? '<p class="warning">Signed by a development identity (NOT FOR PRODUCTION): trust this report nowhere else.</p>'
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Hallmark verification report ${escapeHtml(statement.verificationId)}</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #1b1b1b; }
.verdict { display: inline-block; padding: .2rem .7rem; border-radius: 1rem; background: #e8e8e8; font-weight: 600; }
.warning { background: #fff3cd; padding: .5rem .8rem; border-left: 4px solid #c98a00; }
th { text-align: left; vertical-align: top; padding-right: 1rem; white-space: nowrap; }
td { overflow-wrap: anywhere; }
pre, code { font-size: .85rem; overflow-wrap: anywhere; white-space: pre-wrap; }
</style>
</head>
<body>
<h1>Verification report</h1>
<p><span class="verdict">${escapeHtml(statement.verdict)}</span></p>
${warning}
<ul>
${statement.reasons.map((reason) => `<li><code>${escapeHtml(reason.code)}</code>: ${escapeHtml(reason.message)}</li>`).join('\n')}
</ul>
<table>
${rows.map(([name, value]) => `<tr><th>${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`).join('\n')}
</table>
<h2>How to check this report</h2>
<p>This page's text is not signed: the report below is. Check it, not the page:</p>
<ol>
<li>Save this page as <code>report.html</code>, and keep the picture it is about.</li>
<li>Get the root certificate of the service's report key from its operator, not from this page (a development deployment keeps it in <code>HALLMARK_DATA_DIR/c2pa/development-identity/root-ca.pem</code>).</li>
<li>Run <code>hallmark report check report.html picture.jpg --trust root.pem</code>. It checks the signature, the certificate chain against that root, and that the picture is the file named above (its SHA-256).</li>
</ol>
<p>Without Hallmark: the report is a JWS (RFC 7515) in the flattened JSON serialization. Verify it with any JOSE library using the key of the first certificate in the protected header's <code>x5c</code>, check that chain up to the root, and compare the SHA-256 of the picture with <code>file.sha256</code> in the payload.</p>
<h2>Signed report</h2>
<script type="application/json" id="hallmark-signed-report">${signedReport}</script>
<pre>${escapeHtml(signedReport)}</pre>
</body>
</html>
`;
}

function markText(statement: VerificationStatement): string {
  const { invisible } = statement;
  if (!invisible.found || invisible.payload === null) return 'not found';
  const geometry = invisible.geometry;
  const turned =
    geometry === null
      ? ''
      : `; rotated ${geometry.rotation} degrees${geometry.mirrored ? ', mirrored' : ''}${geometry.scale === null ? '' : `, scale ${geometry.scale.toFixed(2)}`}`;
  return `payload ${invisible.payload}, confidence ${invisible.confidence.toFixed(2)}${turned}`;
}

function contentText(statement: VerificationStatement): string {
  const { content } = statement;
  const regions = content.regions.map((r) => `${r.width}x${r.height} at ${r.x},${r.y}`).join('; ');
  return regions === '' ? content.state : `${content.state}: ${regions}`;
}

function manifestText(statement: VerificationStatement): string {
  const { c2pa } = statement;
  if (!c2pa.present) return 'none';
  const signer = c2pa.signer?.subject ?? 'unknown signer';
  const time = c2pa.signer?.signingTime == null ? '' : `, time-stamped ${c2pa.signer.signingTime}`;
  const codes = c2pa.statusCodes.length === 0 ? '' : ` (${c2pa.statusCodes.join(', ')})`;
  return `${c2pa.state ?? 'unknown'}${codes}; signed by ${signer}${time}`;
}

function publishedRows(statement: VerificationStatement): Array<[string, string]> {
  const record = statement.record;
  if (record === null) return [];
  const rows: Array<[string, string]> = [
    ['Issued', new Date(record.issuedAt * 1000).toISOString()],
  ];
  for (const [name, value] of [
    ['Author', record.author],
    ['Created', record.creationDate],
    ['Licence', record.licenseType],
    ['Copyright', record.copyright],
    ['IPFS', record.ipfs?.ipfsUrl],
    ['NFT', record.nft === null ? undefined : `token ${record.nft.tokenId}`],
    ['Original manifest', record.manifestUrl ?? undefined],
  ] as const) {
    if (value !== undefined) rows.push([name, value]);
  }
  return rows;
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Every string shown may come from a crafted manifest: all of it is escaped. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}
