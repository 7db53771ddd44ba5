// A staged close for a connection the console cuts while the client is still sending (a body refused for its
// size, too large to read and drop): closing a socket with unread bytes makes the kernel answer with a reset, and
// a client still writing then fails (EPIPE, ECONNRESET) before it reads the answer already on its way. So the
// console half-closes after the answer and reads on, dropping what comes, until the client closes its side (it
// has the answer then), or for at most LINGER_BYTES or LINGER_MS, as RFC 9112 section 9.6 asks of servers.
import type net from "node:net";

/** What a cut connection still reads and drops after its answer: a few of a client's writes in flight. */
const LINGER_BYTES = 4 * 1024 * 1024;
/** How long it waits for the client to close its side before closing anyway. */
const LINGER_MS = 5_000;

/** Makes the socket's close after its last answer a staged one (Node's server ends a "close" answer with destroySoon). */
export function lingerOnClose(socket: net.Socket): void {
  socket.destroySoon = () => {
    socket.end();
    let left = LINGER_BYTES;
    const stop = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(stop, LINGER_MS);
    timer.unref();
    socket.on("data", (chunk: Buffer) => {
      left -= chunk.length;
      if (left <= 0) stop();
    });
    socket.once("end", stop);
    socket.once("close", () => clearTimeout(timer));
    socket.resume();
  };
}
