// The commands of `hallmark`: each one's usage line, and its code loaded only when it runs, so
// `hallmark --help` loads none of them and `hallmark detect` loads the pixel code but not the
// database client, and the other way round.
import type { Command } from './io.ts';

export interface CommandEntry {
  readonly usage: string;
  load(): Promise<Command>;
}

export const commands: Record<string, CommandEntry> = {
  keys: {
    usage:
      'hallmark keys create --name NAME | keys list | keys revoke PREFIX   (operators; uses DATABASE_URL)',
    load: async () => (await import('./commands/keys.ts')).keys,
  },
  'key-requests': {
    usage:
      'hallmark key-requests list [--all] [--json] | approve ID | reject ID --reason R   (operators)',
    load: async () => (await import('./commands/key-requests.ts')).keyRequests,
  },
  admins: {
    usage: [
      'hallmark admins create EMAIL [--role admin|viewer] | admins list',
      '      | admins disable|enable|sign-out|reset EMAIL | admins role EMAIL admin|viewer',
      '      operators of the admin console (reset prints a new password once)',
    ].join('\n  '),
    load: async () => (await import('./commands/admins.ts')).admins,
  },
  audit: {
    usage:
      'hallmark audit verify   checks the audit log hash chain (exit 1 if an entry was changed or removed)',
    load: async () => (await import('./commands/audit.ts')).audit,
  },
  ready: {
    usage: 'hallmark ready [--url URL] [--json]   is the server ready? (exit 1 if not)',
    load: async () => (await import('./commands/ready.ts')).ready,
  },
  watermark: {
    usage: [
      'hallmark watermark <files...> [--invisible] [--c2pa] [--author A] [--copyright C]',
      '      [--description D] [--license L] [--created YYYY-MM-DD] [--ipfs] [--nft]',
      '      [--out PATH] [--json] [--url URL]   watermark images through the server',
      '      (several files go as batches, with one progress bar; each result is saved beside its file)',
    ].join('\n  '),
    load: async () => (await import('./commands/watermark.ts')).watermark,
  },
  verify: {
    usage: [
      'hallmark verify <file> [--json] [--regions OUT.png] [--report OUT.json] [--url URL]',
      '      verifies a copy of an image through the server; --regions draws where it was edited;',
      '      --report saves the signed report of the verification',
    ].join('\n  '),
    load: async () => (await import('./commands/verify.ts')).verify,
  },
  report: {
    usage: [
      'hallmark report check <report.json|report.html> [image] --trust ROOTS.pem [--tsa-trust TSA.pem]',
      '      [--json]   checks a signed verification report offline: signature, chain to your roots,',
      '      time-stamp, and that the image is the file it is about (exit 1 if any check fails)',
    ].join('\n  '),
    load: async () => (await import('./commands/report.ts')).report,
  },
  sign: {
    usage: [
      'hallmark sign <in> <out> [--author A] [--copyright C] [--description D] [--license L]',
      '      [--created YYYY-MM-DD] [--cert CHAIN.pem (--key KEY.pem [--passphrase-file F] | --pkcs11 URI)]',
      '      [--tsa URL]',
      '      sign a C2PA manifest into an image locally (--pkcs11: a key in an HSM, by its RFC 7512',
      '      URI); without --cert, with the development',
      '      identity in HALLMARK_DATA_DIR (default .data). Sign last: a re-encode drops the manifest',
    ].join('\n  '),
    load: async () => (await import('./commands/sign.ts')).sign,
  },
  inspect: {
    usage: [
      'hallmark inspect <file> [--json | --crjson] [--trust ANCHORS.pem] [--trust-list LIST.pem]',
      '      show and validate the C2PA manifest of an image (exit 1 if none or invalid); signers are',
      '      trusted only against the roots given (yours, or a public list such as the C2PA Trust List);',
      "      --crjson prints the C2PA's JSON report (crJSON)",
    ].join('\n  '),
    load: async () => (await import('./commands/inspect.ts')).inspect,
  },
  'conformance-check': {
    usage: [
      'hallmark conformance-check <asset> --trust-list LIST.pem --tsa-list TSA.pem [--at RFC3339]',
      '      the C2PA conformance harness: validates against the lists given and prints crJSON;',
      '      --at reports the validation at that time, only where c2pa-node can (exit 1 otherwise)',
    ].join('\n  '),
    load: async () => (await import('./commands/conformance-check.ts')).conformanceCheck,
  },
  mark: {
    usage:
      'hallmark mark <in> <out> --payload <16 hex digits> [--quality 1-100]   add an invisible mark',
    load: async () => (await import('./commands/mark.ts')).mark,
  },
  detect: {
    usage: 'hallmark detect <in> [--json]   read an invisible mark (exit 1 if none is found)',
    load: async () => (await import('./commands/detect.ts')).detect,
  },
};
