import type { PublicVerificationReport } from '@hallmark/sdk';
import { VERDICT_WORDING } from './verdicts.ts';

/** The verdict as a badge with its meaning in plain words, and the findings behind it. */
export function VerdictBadge(props: { readonly report: PublicVerificationReport }) {
  const { verdict, reasons } = props.report;
  const wording = VERDICT_WORDING[verdict];
  return (
    <section className={`verdict ${wording.tone}`} aria-label="Verdict">
      <p>
        <span
          className={`verdict-badge ${wording.tone}`}
          data-testid="verdict"
          data-verdict={verdict}
        >
          {wording.label}
        </span>
      </p>
      <p data-testid="verdict-meaning">{wording.meaning}</p>
      <details>
        <summary>Why</summary>
        <ul>
          {reasons.map((reason) => (
            <li key={reason.code}>
              {reason.message} <code>{reason.code}</code>
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
