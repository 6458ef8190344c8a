/** Why a picture was not kept; the message is written for the publisher (an ingest warning, a problem detail). */
export class ImageRefusal extends Error {
  constructor(
    readonly reason: 'not-an-image' | 'svg' | 'too-many-pixels' | 'undecodable',
    message: string,
  ) {
    super(message);
    this.name = 'ImageRefusal';
  }
}
