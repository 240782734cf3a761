import { Controller, Get, Header } from '@nestjs/common';
import { Public } from '../auth/public.decorator.ts';
import { openApiDocument } from './openapi-document.ts';

@Public()
@Controller()
export class DocsController {
  /** The committed OpenAPI 3.1 document, byte for byte the contract the SDK is generated from. */
  @Get('openapi.json')
  @Header('Cache-Control', 'no-cache')
  openApi(): unknown {
    return openApiDocument;
  }
}
