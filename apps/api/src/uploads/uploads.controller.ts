import { type UploadLink, UploadLinkRequest } from '@hallmark/schemas';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { type Client, CurrentClient } from '../auth/client.ts';
import { parseRequest } from '../validation/parse-request.ts';
import { UploadsService } from './uploads.service.ts';

@Controller('claim')
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  @Post('file-upload-link')
  @HttpCode(201)
  createUploadLink(@CurrentClient() client: Client, @Body() body: unknown): Promise<UploadLink> {
    return this.uploads.createUploadLink(
      client.apiKeyId,
      parseRequest(UploadLinkRequest, body, 'body'),
    );
  }
}
