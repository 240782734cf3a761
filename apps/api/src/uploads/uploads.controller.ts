import type { UploadLink } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller } from '@nestjs/common';
import { type Client, CurrentClient } from '../auth/client.ts';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { UploadsService } from './uploads.service.ts';

@Controller()
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  @Operation(ROUTES.createUploadLink)
  createUploadLink(
    @CurrentClient() client: Client,
    @Input() { body }: InputOf<'createUploadLink'>,
  ): Promise<UploadLink> {
    return this.uploads.createUploadLink(client.apiKeyId, body);
  }
}
