//! The page's side channel: a small HTTP/1.1 server on the loopback
//! (`127.0.0.1`, a port the system picks) that serves the page and takes
//! each case's results as they are drawn (docs/harness.md, "WebGL2
//! transport"). Every request is its own connection (`Connection: close`),
//! so there is no keep-alive to track; every path starts with a token
//! drawn for this server, so nothing else on the machine that happens to
//! find the port can speak for the page.
//!
//! Only what the page sends is understood: a request line, headers with a
//! `Content-Length`, a body of that length. Anything else is answered
//! with an error status and dropped.

use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

/// The most one request's headers may take: the page sends a few lines.
const MAX_HEAD: usize = 16 * 1024;

/// The most one request's body may take: the read-back of eight
/// 8192x8192 RGBA32F targets is 8 GiB, far past what a case draws; this
/// bounds what a confused sender can make the harness allocate.
const MAX_BODY: usize = 2 << 30;

pub(super) struct Server {
    listener: TcpListener,
    port: u16,
    token: String,
}

/// One request from the page, its connection kept for the answer.
pub(super) struct Request {
    pub method: String,
    /// The path after the token (`/page`, `/result/3`, …); `None` for a
    /// request without the token.
    pub path: Option<String>,
    pub body: Vec<u8>,
    pub stream: TcpStream,
}

impl Server {
    /// Listens on the loopback only, on a port the system picks.
    pub fn bind() -> io::Result<Server> {
        let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))?;
        listener.set_nonblocking(true)?;
        let port = listener.local_addr()?.port();
        Ok(Server {
            listener,
            port,
            token: token(),
        })
    }

    /// The page's address.
    pub fn page_url(&self) -> String {
        format!("http://127.0.0.1:{}/{}/page", self.port, self.token)
    }

    /// The next request, if a connection is waiting; its head and body
    /// are read within `read_limit` (the page sends a request whole once
    /// it starts).
    pub fn accept(&self, read_limit: Duration) -> io::Result<Option<Request>> {
        let stream = match self.listener.accept() {
            Ok((s, _)) => s,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(None),
            Err(e) => return Err(e),
        };
        stream.set_nonblocking(false)?;
        stream.set_read_timeout(Some(read_limit.max(Duration::from_secs(1))))?;
        let mut stream = stream;
        match read_request(&mut stream, &self.token) {
            Ok((method, path, body)) => Ok(Some(Request {
                method,
                path,
                body,
                stream,
            })),
            Err(e) => {
                let _ = respond(&mut stream, "400 Bad Request", "text/plain", e.as_bytes());
                Ok(None)
            }
        }
    }
}

/// A token for the paths: not a secret against the machine's owner (the
/// browser's command line shows it), only against a stray local client.
fn token() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    format!("{:016x}", h.finish())
}

/// Reads a request's head and body: `(method, path after the token,
/// body)`, or what is wrong with it.
fn read_request(
    stream: &mut TcpStream,
    token: &str,
) -> Result<(String, Option<String>, Vec<u8>), String> {
    let mut head = Vec::with_capacity(1024);
    let mut byte = [0u8; 1024];
    let end = loop {
        let n = stream
            .read(&mut byte)
            .map_err(|e| format!("reading the request: {e}"))?;
        if n == 0 {
            return Err("the connection closed inside the request's head".into());
        }
        head.extend_from_slice(&byte[..n]);
        if let Some(at) = head.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        if head.len() > MAX_HEAD {
            return Err(format!("the request's head is over {MAX_HEAD} bytes"));
        }
    };
    let rest = head.split_off(end + 4);
    let text = String::from_utf8_lossy(&head[..end]).into_owned();
    let mut lines = text.split("\r\n");
    let mut first = lines.next().unwrap_or("").split(' ');
    let method = first.next().unwrap_or("").to_string();
    let target = first.next().unwrap_or("");
    let mut length = 0usize;
    for line in lines {
        if let Some((k, v)) = line.split_once(':')
            && k.trim().eq_ignore_ascii_case("content-length")
        {
            length = v
                .trim()
                .parse()
                .map_err(|_| format!("Content-Length {:?} is not a number", v.trim()))?;
        }
    }
    if length > MAX_BODY {
        return Err(format!("a body of {length} bytes is over {MAX_BODY}"));
    }
    if rest.len() > length {
        return Err("more bytes than the Content-Length".into());
    }
    let mut body = Vec::with_capacity(length);
    body.extend_from_slice(&rest);
    // `take` then `read_to_end` fills exactly the declared length.
    let want = (length - body.len()) as u64;
    stream
        .take(want)
        .read_to_end(&mut body)
        .map_err(|e| format!("reading the request's body: {e}"))?;
    if body.len() != length {
        return Err(format!(
            "the body ended after {} of {length} bytes",
            body.len()
        ));
    }
    let path = target
        .split('?')
        .next()
        .and_then(|p| p.strip_prefix('/'))
        .and_then(|p| p.strip_prefix(token))
        .filter(|p| p.starts_with('/'))
        .map(str::to_string);
    Ok((method, path, body))
}

/// Answers a request whole and ends the connection.
pub(super) fn respond(
    stream: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: &[u8],
) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()?;
    let _ = stream.shutdown(std::net::Shutdown::Write);
    Ok(())
}

/// Answers a watch request: the head and a first kilobyte of body, which
/// makes the browser hand the response to the page at once (it may hold
/// back a response until it has bytes to look at), and no end. The
/// connection stays open while the page draws; the browser closes it when
/// the page's renderer goes away, which is how a crash is seen at once
/// rather than at the case's time limit.
pub(super) fn open_watch(stream: &mut TcpStream) -> io::Result<()> {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n";
    stream.write_all(head.as_bytes())?;
    stream.write_all(&[b' '; 1024])?;
    stream.flush()?;
    stream.set_nonblocking(true)
}

/// Whether the other end of a watch connection has gone.
pub(super) fn watch_closed(stream: &mut TcpStream) -> bool {
    let mut buf = [0u8; 64];
    match stream.read(&mut buf) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => !matches!(
            e.kind(),
            io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn send(server: &Server, raw: &[u8]) -> Option<Request> {
        let mut c = TcpStream::connect(("127.0.0.1", server.port)).expect("connect");
        c.write_all(raw).expect("write");
        for _ in 0..500 {
            if let Some(r) = server.accept(Duration::from_secs(2)).expect("accept") {
                return Some(r);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        None
    }

    #[test]
    fn a_request_is_read_whole_and_its_path_needs_the_token() {
        let s = Server::bind().expect("bind");
        assert!(s.page_url().starts_with("http://127.0.0.1:"));
        let raw = format!(
            "POST /{}/result/7 HTTP/1.1\r\nHost: x\r\ncontent-length: 5\r\n\r\nhello",
            s.token
        );
        let r = send(&s, raw.as_bytes()).expect("a request");
        assert_eq!(r.method, "POST");
        assert_eq!(r.path.as_deref(), Some("/result/7"));
        assert_eq!(r.body, b"hello");
        let r = send(&s, b"GET /other/page HTTP/1.1\r\n\r\n").expect("a request");
        assert_eq!(r.path, None);
    }

    #[test]
    fn a_short_body_is_refused() {
        let s = Server::bind().expect("bind");
        let mut c = TcpStream::connect(("127.0.0.1", s.port)).expect("connect");
        c.write_all(b"POST /x HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc")
            .expect("write");
        c.shutdown(std::net::Shutdown::Write).expect("shutdown");
        let mut got = None;
        for _ in 0..500 {
            got = s.accept(Duration::from_secs(2)).expect("accept");
            if got.is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(got.is_none(), "a truncated request was taken");
        let mut answer = String::new();
        let _ = c.read_to_string(&mut answer);
        assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
        assert!(answer.contains("3 of 10 bytes"), "{answer}");
    }
}
