import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  /** Header names lowercased. */
  headers: Record<string, string>;
  body: string;
}

/**
 * One TCP connection to an HTTP server, requests written by hand, so a test sees exactly which
 * connection carries what and when the server closes it (an Agent would quietly open another).
 */
export class RawConnection {
  private buffered = Buffer.alloc(0);
  private waiting: (() => void) | null = null;
  /** Resolves with the time (performance.now()) the server ended the connection. */
  readonly closed: Promise<number>;
  private ended = false;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.waiting?.();
    });
    this.closed = new Promise((resolve) => {
      const done = () => {
        this.ended = true;
        this.waiting?.();
        resolve(performance.now());
      };
      socket.once('end', done).once('close', done);
    });
    socket.on('error', () => undefined);
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  get isOpen(): boolean {
    return !this.ended && !this.socket.destroyed;
  }

  /** Sends a GET and reads its whole answer (Content-Length framed); rejects if the server closes first. */
  async get(path: string): Promise<RawAnswer> {
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`);
    for (;;) {
      const answer = this.take();
      if (answer) return answer;
      if (this.ended) throw new Error('the server closed the connection before answering');
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.waiting = null;
    }
  }

  destroy(): void {
    this.socket.destroy();
  }

  private take(): RawAnswer | null {
    const headEnd = this.buffered.indexOf('\r\n\r\n');
    if (headEnd < 0) return null;
    const [statusLine, ...lines] = this.buffered.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0);
    if (this.buffered.length < headEnd + 4 + length) return null;
    const body = this.buffered.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
    this.buffered = this.buffered.subarray(headEnd + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }
}
