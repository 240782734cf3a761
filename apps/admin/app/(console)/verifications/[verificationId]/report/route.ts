// The signed report of a verification, as a download for the operator to hand on. The API signs
// it; the console passes it through under the operator's session.
import { HallmarkApiError } from '@hallmark/sdk';
import { redirect } from 'next/navigation';
import { adminClient } from '../../../../../lib/api.ts';

export async function GET(
  _request: Request,
  context: { readonly params: Promise<{ verificationId: string }> },
): Promise<Response> {
  const { verificationId } = await context.params;
  const client = await adminClient();
  let report: Awaited<ReturnType<typeof client.getAdminVerificationReport>>;
  try {
    report = await client.getAdminVerificationReport(verificationId);
  } catch (error) {
    if (!(error instanceof HallmarkApiError)) throw error;
    if (error.status === 401) redirect('/sign-in');
    return Response.json(error.problem ?? { title: error.message }, {
      status: error.status,
      headers: { 'content-type': 'application/problem+json' },
    });
  }
  // JSON.parse keeps members in the order the API wrote them and the report has no whitespace,
  // so this is the signer's text, which a checker requires byte for byte.
  return new Response(JSON.stringify(report), {
    headers: {
      'content-type': 'application/json',
      'cache-control': 'private, no-store',
      'content-disposition': `attachment; filename="hallmark-report-${verificationId}.json"`,
    },
  });
}
