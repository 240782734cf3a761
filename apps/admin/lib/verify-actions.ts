'use server';
// Verifying an image from the console's pages: the public page's upload, and an operator's. The
// image goes to the API as the request's body (sendImage); nothing of it is kept here.
import type { AdminVerificationDetail, PublicVerification } from '@hallmark/sdk';
import { redirect } from 'next/navigation';
import { sendImage } from './api.ts';
import { type FormState, problemState, textOf } from './form-state.ts';

/** The public page's state: the answer to the last picture sent, or why there is none. */
export interface PublicVerifyState {
  readonly error?: string;
  readonly verification?: PublicVerification;
  readonly fileName?: string;
}

/** The picture of a form, or a message when none was chosen. */
function imageOf(form: FormData): File | string {
  const image = form.get('image');
  return image instanceof File && image.size > 0 ? image : 'Choose a picture to check.';
}

export async function publicVerifyAction(
  _previous: PublicVerifyState,
  form: FormData,
): Promise<PublicVerifyState> {
  const image = imageOf(form);
  if (typeof image === 'string') return { error: image };
  try {
    const verification = await sendImage<PublicVerification>('/public/verify', image);
    return { verification, fileName: image.name };
  } catch (error) {
    return { error: problemState(error).error ?? 'The picture could not be checked.' };
  }
}

/** An operator's verification: recorded, then shown on its own page. */
export async function operatorVerifyAction(
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const image = imageOf(form);
  if (typeof image === 'string') return { error: image, fields: { image } };
  let verificationId: string;
  try {
    const detail = await sendImage<AdminVerificationDetail>(
      '/admin/verifications',
      image,
      textOf(form, 'csrf') ?? '',
    );
    verificationId = detail.verificationId;
  } catch (error) {
    return problemState(error);
  }
  redirect(`/verifications/${verificationId}`);
}
