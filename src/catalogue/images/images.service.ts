import { Injectable } from '@nestjs/common';
import { notFound } from '../../common/errors/domain-error';
import { ImagesRepository, type StoredImage } from './images.repository';

const FILE = /^([0-9a-f]{64})\.webp$/;

/** `GET /images/<sha256>.webp`: a stored icon or screenshot encoding, by the hash of its bytes. */
@Injectable()
export class ImagesService {
  constructor(private readonly images: ImagesRepository) {}

  async image(file: string): Promise<StoredImage> {
    const sha256 = FILE.exec(file)?.[1];
    const image = sha256 ? await this.images.find(sha256) : null;
    if (!image) throw notFound('no such image');
    return image;
  }
}
