import { Global, Module } from '@nestjs/common';
import { Clock, CryptoRandomSource, RandomSource, SystemClock } from './clock';
import { ProblemDetailsFilter } from './errors/problem.filter';
import { RouteTable } from './http/route-table';

@Global()
@Module({
  providers: [
    ProblemDetailsFilter,
    { provide: Clock, useClass: SystemClock },
    { provide: RandomSource, useClass: CryptoRandomSource },
    RouteTable,
  ],
  exports: [Clock, RandomSource, RouteTable, ProblemDetailsFilter],
})
export class CommonModule {}
