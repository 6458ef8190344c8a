import { Injectable } from '@nestjs/common';
import { notFound } from '../../common/errors/domain-error';
import type { ProblemTypeDto } from './dto/problem-type.dto';
import { toProblemTypeDto } from './problems.mapper';
import { PROBLEM_CATALOGUE } from './problem-catalogue';

@Injectable()
export class ProblemsService {
  describe(code: string): ProblemTypeDto {
    const entry = Object.hasOwn(PROBLEM_CATALOGUE, code) ? PROBLEM_CATALOGUE[code] : undefined;
    if (!entry) throw notFound(`no problem type "${code}"`);
    return toProblemTypeDto(code, entry);
  }
}
