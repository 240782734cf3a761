import { Module } from '@nestjs/common';
import { ChainService } from './chain.service.ts';
import { GatewayController } from './gateway.controller.ts';
import { NftOwnerRefresher } from './nft-owner-refresher.ts';
import { NftTransfersService } from './nft-transfers.service.ts';
import { RecordViews } from './record-views.service.ts';
import { RecordsController } from './records.controller.ts';
import { RecordsService } from './records.service.ts';

@Module({
  controllers: [RecordsController, GatewayController],
  providers: [ChainService, NftOwnerRefresher, NftTransfersService, RecordViews, RecordsService],
  exports: [RecordViews, NftOwnerRefresher],
})
export class RecordsModule {}
