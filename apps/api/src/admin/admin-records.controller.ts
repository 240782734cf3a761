import type { AdminIpfsRecordPage, AdminNftPage } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller } from '@nestjs/common';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { AdminRecordsService } from './admin-records.service.ts';
import { AdminRoute } from './admin-route.decorator.ts';

/** The NFTs and IPFS records of every key, newest first. */
@AdminRoute()
@Controller()
export class AdminRecordsController {
  constructor(private readonly records: AdminRecordsService) {}

  @Operation(ROUTES.listAllNfts)
  nfts(@Input() { query }: InputOf<'listAllNfts'>): Promise<AdminNftPage> {
    return this.records.nfts(query.cursor, query.limit);
  }

  @Operation(ROUTES.listAllIpfsRecords)
  ipfsRecords(@Input() { query }: InputOf<'listAllIpfsRecords'>): Promise<AdminIpfsRecordPage> {
    return this.records.ipfsRecords(query.cursor, query.limit);
  }
}
