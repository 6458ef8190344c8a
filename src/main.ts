import 'reflect-metadata';
import { serveUntilSignalled } from './server';

// `npm run start:prod`: the compiled server, as production and the benchmarks run it.
serveUntilSignalled(process.env, process.cwd(), (text) => process.stderr.write(text)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`registry: failed to start: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
