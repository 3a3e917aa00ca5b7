/**
 * A scanner for sed scripts, enough to tell whether a script can write files
 * or run commands: the `w`/`W` commands and `s///w` write files, the `e`
 * command and `s///e` run the pattern space as a shell command (GNU sed). A
 * script the scanner does not understand counts as unsafe.
 */

/** Why a sed script is unsafe, or `undefined` when it only reads and prints. */
export function unsafeSedScript(script: string): string | undefined {
  const s = new Scanner(script);
  while (true) {
    s.skip(' \t\n;');
    if (s.done()) return undefined;
    if (s.peek() === '#') {
      s.until('\n');
      continue;
    }
    if (!s.address()) return 'an address the gate cannot read';
    s.skip(' \t');
    if (s.peek() === ',') {
      s.next();
      s.skip(' \t');
      if (!s.address()) return 'an address range the gate cannot read';
    }
    s.skip(' \t');
    while (s.peek() === '!') {
      s.next();
      s.skip(' \t');
    }
    const command = s.next();
    switch (command) {
      case '{':
      case '}':
      case '=':
      case 'd':
      case 'D':
      case 'g':
      case 'G':
      case 'h':
      case 'H':
      case 'n':
      case 'N':
      case 'p':
      case 'P':
      case 'x':
      case 'z':
      case 'F':
        break;
      case 'l':
      case 'q':
      case 'Q':
      case 'L':
        s.skip(' \t');
        s.digits();
        break;
      case ':':
      case 'b':
      case 't':
      case 'T':
      case 'v':
        s.untilAny(';\n');
        break;
      case 'a':
      case 'i':
      case 'c':
      case 'r':
      case 'R':
        // Text or a file to read, to the end of the line (a backslash continues it).
        s.lineWithContinuations();
        break;
      case 'w':
      case 'W':
        return `the sed command "${command}" writes a file`;
      case 'e':
        return 'the sed command "e" runs a shell command';
      case 'y': {
        const delimiter = s.next();
        if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return 'a malformed y command';
        if (!s.delimited(delimiter) || !s.delimited(delimiter)) return 'a malformed y command';
        break;
      }
      case 's': {
        const delimiter = s.next();
        if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return 'a malformed s command';
        if (!s.delimited(delimiter) || !s.delimited(delimiter)) return 'a malformed s command';
        while (!s.done() && !';\n}'.includes(s.peek()!)) {
          const flag = s.next()!;
          if (flag === 'w') return 'the s command\'s "w" flag writes a file';
          if (flag === 'e') return 'the s command\'s "e" flag runs a shell command';
          if (!'gpiImM0123456789 \t'.includes(flag)) return `an s flag the gate does not know ("${flag}")`;
        }
        break;
      }
      default:
        return command === undefined
          ? 'an address without a command'
          : `a sed command the gate does not know ("${command}")`;
    }
  }
}

class Scanner {
  #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  done(): boolean {
    return this.#at >= this.#text.length;
  }

  peek(): string | undefined {
    return this.#text[this.#at];
  }

  next(): string | undefined {
    return this.#text[this.#at++];
  }

  skip(chars: string): void {
    while (!this.done() && chars.includes(this.peek()!)) this.#at++;
  }

  digits(): boolean {
    const start = this.#at;
    while (!this.done() && /[0-9]/.test(this.peek()!)) this.#at++;
    return this.#at > start;
  }

  until(char: string): void {
    while (!this.done() && this.next() !== char) {}
  }

  untilAny(chars: string): void {
    while (!this.done() && !chars.includes(this.peek()!)) this.#at++;
  }

  lineWithContinuations(): void {
    while (!this.done()) {
      const c = this.next();
      if (c === '\\') this.next();
      else if (c === '\n') return;
    }
  }

  /** Consume text up to an unescaped delimiter; false when it never comes. */
  delimited(delimiter: string): boolean {
    while (!this.done()) {
      const c = this.next();
      if (c === '\\') this.next();
      else if (c === delimiter) return true;
      else if (c === '\n' && delimiter !== '\n') return false;
    }
    return false;
  }

  /** An optional address: a line number (with `~step` or `+n`), `$`, `/regex/` or `\cregexc` with I/M flags. */
  address(): boolean {
    const c = this.peek();
    if (c === undefined) return true;
    if (c === '$') {
      this.next();
      return true;
    }
    if (/[0-9]/.test(c)) {
      this.digits();
      if (this.peek() === '~') {
        this.next();
        return this.digits();
      }
      return true;
    }
    if (c === '+' || c === '~') {
      this.next();
      return this.digits();
    }
    if (c === '/' || c === '\\') {
      this.next();
      const delimiter = c === '/' ? '/' : this.next();
      if (delimiter === undefined || delimiter === '\n') return false;
      if (!this.delimited(delimiter)) return false;
      while (this.peek() === 'I' || this.peek() === 'M') this.next();
      return true;
    }
    return true;
  }
}
