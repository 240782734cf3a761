import { type AccessToken, problemTypes } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller } from '@nestjs/common';
import { ProblemException } from '../problem/problem.exception.ts';
import { Operation } from '../routing/operation.decorator.ts';
import { Authenticator } from './authenticator.service.ts';
import { type Client, CurrentClient } from './client.ts';

@Controller()
export class AuthController {
  constructor(private readonly authenticator: Authenticator) {}

  /** Exchanges the API key sent as bearer for a short-lived access token. */
  @Operation(ROUTES.createAccessToken)
  createAccessToken(@CurrentClient() client: Client): AccessToken {
    // A token minting tokens would let a leaked token live forever.
    if (client.via !== 'api_key') {
      throw new ProblemException(
        problemTypes.unauthorized,
        'Send the API key, not an access token, to obtain an access token.',
      );
    }
    const { token, expiresAt, expiresIn } = this.authenticator.tokens.mint(
      client.apiKeyId,
      Math.floor(Date.now() / 1000),
    );
    return { accessToken: token, tokenType: 'Bearer', expiresIn, expiresAt };
  }
}
