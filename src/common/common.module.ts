import { Global, Module } from '@nestjs/common';
import { Clock, CryptoRandomSource, RandomSource, SystemClock } from './clock';
import { HtmlErrorPages } from './errors/html-error-pages';
import { ProblemDetailsFilter } from './errors/problem.filter';
import { InternalCalls } from './http/internal-calls';
import { RouteTable } from './http/route-table';

@Global()
@Module({
  providers: [
    ProblemDetailsFilter,
    HtmlErrorPages,
    { provide: Clock, useClass: SystemClock },
    { provide: RandomSource, useClass: CryptoRandomSource },
    RouteTable,
    InternalCalls,
  ],
  exports: [Clock, RandomSource, RouteTable, ProblemDetailsFilter, InternalCalls, HtmlErrorPages],
})
export class CommonModule {}
