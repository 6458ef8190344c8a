import type { ProblemTypeDto } from './dto/problem-type.dto';
import type { ProblemTypeDescription } from './problem-catalogue';

export function toProblemTypeDto(code: string, entry: ProblemTypeDescription): ProblemTypeDto {
  return { code, title: entry.title, status: entry.status, description: entry.description };
}
