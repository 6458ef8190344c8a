import { Global, Module } from '@nestjs/common';
import { Clock, CryptoRandomSource, RandomSource, SystemClock } from './clock';
import { ProblemDetailsFilter } from './errors/problem.filter';
import { InternalCalls } from './http/internal-calls';
import { RouteTable } from './http/route-table';

@Global()
@Module({
  providers: [
    ProblemDetailsFilter,
    { provide: Clock, useClass: SystemClock },
    { provide: RandomSource, useClass: CryptoRandomSource },
    RouteTable,
    InternalCalls,
  ],
  exports: [Clock, RandomSource, RouteTable, ProblemDetailsFilter, InternalCalls],
})
export class CommonModule {}
