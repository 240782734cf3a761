import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'hallmark:public';

/** Marks a route that needs no bearer token (probes, docs, signed storage links). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
