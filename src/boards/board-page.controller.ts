import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createReadStream } from 'node:fs';
import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../common/auth';
import { notFound } from '../common/api-error';
import { BoardsService } from './boards.service';

/** The page's own files, committed as source beside this module (nothing is fetched at run time). */
const PAGE_DIR = join(__dirname, '..', '..', '..', 'src', 'boards', 'page');
const read = (name: string) => readFileSync(join(PAGE_DIR, name), 'utf8');

/** The fonts of the PDF statement, so the board shows every script it does (Latin, Cyrillic, Greek, Turkish, CJK, Hangul, Arabic, Hebrew). */
const FONTS: Record<string, () => string> = {
  'sans.ttf': () => join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans.ttf'),
  'sans-bold.ttf': () => join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans-Bold.ttf'),
  'cjk.otf': () => join(embedPdfFonts('@embedpdf/fonts-sc'), 'NotoSansHans-Regular.otf'),
  'hangul.otf': () => join(embedPdfFonts('@embedpdf/fonts-kr'), 'NotoSansKR-Regular.otf'),
  'arabic.ttf': () => join(embedPdfFonts('@embedpdf/fonts-arabic'), 'NotoNaskhArabic-Regular.ttf'),
  'hebrew.ttf': () => join(embedPdfFonts('@embedpdf/fonts-hebrew'), 'NotoSansHebrew-Regular.ttf'),
};

/** The fonts folder of an @embedpdf/fonts-* package (its main file is dist/index.cjs; package.json is not exported). */
function embedPdfFonts(pkg: string): string {
  return join(dirname(require.resolve(pkg)), '..', 'fonts');
}

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; font-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The board page a club opens on its screen (`/board/{token}`) and its files. The page holds
 * no data: its script reads the board with the token from its own address. Outside the
 * OpenAPI document, like the rule book: a page, not an API.
 */
@ApiExcludeController()
@Controller()
export class BoardPageController {
  private readonly html = read('board.html');
  private readonly gone = read('gone.html');
  private readonly script = read('board.js');
  private readonly style = read('board.css');

  constructor(private readonly boards: BoardsService) {}

  @Get('board/:token')
  @Public()
  async page(@Param('token') token: string, @Res() reply: FastifyReply) {
    const ok = token.length <= 200 && (await this.boards.pageToken(token));
    reply
      .code(ok ? 200 : 404)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', CSP)
      .send(ok ? this.html : this.gone);
  }

  @Get('board-assets/board.js')
  @Public()
  js(@Res() reply: FastifyReply) {
    reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(this.script);
  }

  @Get('board-assets/board.css')
  @Public()
  css(@Res() reply: FastifyReply) {
    reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'no-cache').send(this.style);
  }

  @Get('board-assets/fonts/:name')
  @Public()
  font(@Param('name') name: string, @Res() reply: FastifyReply) {
    const path = Object.hasOwn(FONTS, name) ? FONTS[name]() : null;
    if (path === null) throw notFound('Font');
    reply
      .header('content-type', name.endsWith('.otf') ? 'font/otf' : 'font/ttf')
      .header('cache-control', 'public, max-age=86400')
      .send(createReadStream(path));
  }
}
