import { Module } from '@nestjs/common';
import { ForgeRegistry } from './forge-registry';

@Module({ providers: [ForgeRegistry], exports: [ForgeRegistry] })
export class ForgesModule {}
