//! Adapters: any implementation of the containers, in any language, as a
//! child process speaking the adapter protocol (PROTOCOL.md, "Adapters"):
//! newline-delimited JSON on its stdin and stdout, a handshake first, then
//! one request and one answer per case.
//!
//! [`AdapterExecutor`] is the rig's side. One process serves a whole run; a
//! process that dies, hangs past the per-case timeout, or breaks the
//! protocol fails only the case it was running (the error names what
//! happened and the adapter's last stderr lines), is killed, and the next
//! case starts a fresh one. Ops the handshake does not list are answered
//! `unsupported` by the rig, without asking.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Map, Value};

use crate::case::Case;
use crate::exec::{ExecError, Executor};
use crate::limits;
use crate::outcome::Outcome;

/// The protocol version this rig speaks.
pub const PROTOCOL: u64 = 1;

/// Stderr lines kept for error reports.
const STDERR_LINES: usize = 20;

/// What an adapter says of itself, its first line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handshake {
    /// The implementation (`prismarine-chunk`).
    pub implementation: String,
    /// Its version (`1.41.0`).
    pub version: String,
    /// The Minecraft version it targets (`26.1`).
    pub minecraft: String,
    /// The op kinds it supports, by subject kind; a subject kind missing is
    /// unsupported entirely.
    pub ops: BTreeMap<String, BTreeSet<String>>,
    /// Free text (how it was built, what it cannot take).
    pub notes: Option<String>,
}

impl Handshake {
    /// Reads a handshake line, refusing anything the protocol does not allow.
    pub fn parse(line: &str) -> Result<Handshake, String> {
        let v: Value = serde_json::from_str(line)
            .map_err(|e| format!("the handshake is not JSON ({e}): {}", cut(line)))?;
        let m = v
            .as_object()
            .ok_or_else(|| format!("the handshake is a JSON object, got {}", cut(line)))?;
        match m.get("protocol").and_then(Value::as_u64) {
            Some(PROTOCOL) => {}
            Some(n) => {
                return Err(format!(
                    "the adapter speaks protocol {n}; this rig speaks {PROTOCOL}"
                ))
            }
            None => return Err("the handshake has no `protocol` number".into()),
        }
        let text = |key: &str| -> Result<String, String> {
            match m.get(key) {
                Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
                _ => Err(format!("the handshake's `{key}` is not a non-empty string")),
            }
        };
        let mut ops = BTreeMap::new();
        let listed = m
            .get("ops")
            .and_then(Value::as_object)
            .ok_or("the handshake's `ops` is not an object of lists")?;
        for (kind, names) in listed {
            let names = names
                .as_array()
                .and_then(|a| a.iter().map(|n| n.as_str().map(String::from)).collect())
                .ok_or_else(|| format!("the handshake's `ops.{kind}` is not a list of op names"))?;
            ops.insert(kind.clone(), names);
        }
        let notes = match m.get("notes") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err("the handshake's `notes` is not a string".into()),
        };
        Ok(Handshake {
            implementation: text("implementation")?,
            version: text("version")?,
            minecraft: text("minecraft")?,
            ops,
            notes,
        })
    }

    /// The handshake line's JSON.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("protocol".into(), json!(PROTOCOL));
        m.insert("implementation".into(), json!(self.implementation));
        m.insert("version".into(), json!(self.version));
        m.insert("minecraft".into(), json!(self.minecraft));
        m.insert("ops".into(), json!(self.ops));
        if let Some(n) = &self.notes {
            m.insert("notes".into(), json!(n));
        }
        Value::Object(m)
    }

    /// Whether the adapter takes op kind `op` on subject kind `subject`.
    pub fn supports(&self, subject: &str, op: &str) -> bool {
        self.ops.get(subject).is_some_and(|ops| ops.contains(op))
    }

    /// `implementation version (Minecraft M)`, for reports.
    pub fn label(&self) -> String {
        format!(
            "{} {} (Minecraft {})",
            self.implementation, self.version, self.minecraft
        )
    }
}

/// A line from the adapter's stdout, or the end of it.
enum Line {
    Text(String),
    End(Option<String>),
    /// A line past the limit: nothing more is read.
    TooLong,
}

/// Reads one line (its newline kept, as `read_line` does) of at most
/// `limit` bytes besides the newline; never holds more than that, however
/// much an adapter writes without one.
fn read_line(r: &mut impl BufRead, limit: usize) -> Line {
    let mut bytes = Vec::new();
    loop {
        let buf = match r.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Line::End(Some(format!("reading its stdout: {e}"))),
        };
        if buf.is_empty() {
            // The end: a last line without its newline is still a line.
            if bytes.is_empty() {
                return Line::End(None);
            }
            break;
        }
        let (take, ends) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        if bytes.len() + take - usize::from(ends) > limit {
            return Line::TooLong;
        }
        bytes.extend_from_slice(&buf[..take]);
        r.consume(take);
        if ends {
            break;
        }
    }
    match String::from_utf8(bytes) {
        Ok(line) => Line::Text(line),
        Err(_) => Line::End(Some(
            "reading its stdout: stream did not contain valid UTF-8".into(),
        )),
    }
}

/// One running adapter process.
struct Process {
    child: Child,
    /// Lines to write; the writer thread owns stdin, so a full pipe to a
    /// hung adapter blocks that thread, never the run.
    input: Option<Sender<String>>,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// Disconnects when the adapter's stderr ends.
    stderr_done: Receiver<()>,
}

impl Process {
    /// Starts `sh -c command`, its stdout read a line of at most
    /// `answer_bytes` at a time.
    fn start(command: &str, answer_bytes: usize) -> Result<Process, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own process group, so a kill reaches what `sh -c` started.
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot start `sh -c {command}`: {e}"))?;
        let mut stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let stderr_pipe = BufReader::new(child.stderr.take().expect("piped stderr"));
        let (input, requests) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            for line in requests {
                if stdin
                    .write_all(line.as_bytes())
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    return;
                }
            }
        });
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut stdout = stdout;
            loop {
                let line = read_line(&mut stdout, answer_bytes);
                let last = !matches!(line, Line::Text(_));
                if tx.send(line).is_err() || last {
                    return;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let kept = Arc::clone(&stderr);
        let (done, stderr_done) = mpsc::channel::<()>();
        std::thread::spawn(move || {
            let _done = done;
            for line in stderr_pipe.lines() {
                let Ok(line) = line else { return };
                let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
                if kept.len() == STDERR_LINES {
                    kept.pop_front();
                }
                kept.push_back(line);
            }
        });
        Ok(Process {
            child,
            input: Some(input),
            lines,
            stderr,
            stderr_done,
        })
    }

    fn send(&self, line: String) {
        if let Some(input) = &self.input {
            let _ = input.send(line);
        }
    }

    /// A line already read and not yet taken, without waiting.
    fn pending_line(&self) -> Option<String> {
        match self.lines.try_recv() {
            Ok(Line::Text(line)) => Some(line),
            _ => None,
        }
    }

    /// The next line within `timeout`.
    fn next_line(&self, timeout: Duration) -> Result<String, Gone> {
        match self.lines.recv_timeout(timeout) {
            Ok(Line::Text(line)) => Ok(line),
            Ok(Line::End(why)) => Err(Gone::Died(why)),
            Ok(Line::TooLong) => Err(Gone::TooLong),
            Err(RecvTimeoutError::Disconnected) => Err(Gone::Died(None)),
            Err(RecvTimeoutError::Timeout) => Err(Gone::Timeout),
        }
    }

    /// The adapter's last stderr lines, for a report. `ended`: its stdout
    /// ended, so it is exiting and stderr ends soon too; wait for that (up
    /// to 5 s), so that its last words are all there.
    fn stderr_tail(&self, ended: bool) -> String {
        let wait = if ended { 5000 } else { 50 };
        let _ = self.stderr_done.recv_timeout(Duration::from_millis(wait));
        let kept = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        if kept.is_empty() {
            return String::new();
        }
        let mut s = String::from("\n  its stderr ended:");
        for line in kept.iter() {
            s.push_str("\n  | ");
            s.push_str(line);
        }
        s
    }

    /// Kills the whole process group, unless the child has exited already
    /// (then its group id may be free for reuse), and reaps the child.
    fn kill(mut self) -> Option<ExitStatus> {
        if let Ok(Some(status)) = self.child.try_wait() {
            return Some(status);
        }
        let pid = self.child.id() as i32;
        // SAFETY: kill(2) with a negative pid signals that process group;
        // the group is this child's own (process_group(0) above), and the
        // child is not reaped yet, so the id is still its.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
        self.child.wait().ok()
    }

    /// Closes stdin and waits for a clean exit (5 s), else kills.
    fn finish(mut self) -> Result<(), String> {
        self.input = None;
        for _ in 0..500 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return if status.success() {
                    Ok(())
                } else {
                    Err(format!(
                        "the adapter exited with {} at the end of the run",
                        describe(status)
                    ))
                };
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
        Err("the adapter did not exit within 5 s of its stdin closing; killed".into())
    }
}

enum Gone {
    Died(Option<String>),
    Timeout,
    /// A line past [`limits::ANSWER_BYTES`] (or the limit the executor was given).
    TooLong,
}

/// Why a line past `limit` was refused.
fn too_long(limit: usize) -> String {
    format!(
        "the adapter wrote a line longer than {limit} bytes, the limit of an answer line \
         (PROTOCOL.md, \"Limits\"); it was cut there and not read"
    )
}

fn describe(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(c), _) => format!("exit code {c}"),
        (None, Some(sig)) => format!("signal {sig}"),
        _ => status.to_string(),
    }
}

/// A line shortened for a report.
fn cut(line: &str) -> String {
    const MAX: usize = 200;
    let line = line.trim_end();
    if line.chars().count() > MAX {
        format!(
            "{}… ({} bytes)",
            line.chars().take(MAX).collect::<String>(),
            line.len()
        )
    } else {
        line.to_string()
    }
}

/// Runs cases through an adapter process (`sh -c COMMAND`).
pub struct AdapterExecutor {
    command: String,
    timeout: Duration,
    /// The longest line read from it.
    answer_bytes: usize,
    handshake: Handshake,
    process: Option<Process>,
    /// How many times a process was lost (died, hung, broke the protocol)
    /// and a fresh one started for the next case.
    pub restarts: usize,
    /// Why no further case can run (a restarted adapter gave no handshake).
    unusable: Option<String>,
    /// The last request's id.
    last_id: u64,
    /// The last few requests' ids and case names, to blame an extra answer on.
    recent: VecDeque<(u64, String)>,
    /// Cases found to have broken the protocol after they were judged.
    late: Vec<(String, String)>,
}

/// Requests remembered to blame an extra answer on.
const RECENT: usize = 16;

impl AdapterExecutor {
    /// Starts `sh -c command` and reads its handshake (within `timeout`).
    pub fn start(command: &str, timeout: Duration) -> Result<AdapterExecutor, String> {
        AdapterExecutor::start_bounded(command, timeout, limits::ANSWER_BYTES)
    }

    /// [`AdapterExecutor::start`] with lines of at most `answer_bytes`.
    fn start_bounded(
        command: &str,
        timeout: Duration,
        answer_bytes: usize,
    ) -> Result<AdapterExecutor, String> {
        let (process, handshake) = handshake(command, timeout, answer_bytes)?;
        Ok(AdapterExecutor {
            command: command.to_string(),
            timeout,
            answer_bytes,
            handshake,
            process: Some(process),
            restarts: 0,
            unusable: None,
            last_id: 0,
            recent: VecDeque::new(),
            late: Vec::new(),
        })
    }

    /// The handshake the adapter gave.
    pub fn handshake(&self) -> &Handshake {
        &self.handshake
    }

    /// The command it runs.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Why no further case can run, once a restart has failed.
    pub fn unusable(&self) -> Option<&str> {
        self.unusable.as_deref()
    }

    /// Cases found, after they were judged, to have broken the protocol (an
    /// adapter that answered one case twice): each case's name and why. The
    /// rig blames the case that caused it, not the one whose answer it took.
    pub fn take_late_failures(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.late)
    }

    /// Closes the adapter's stdin and waits for it to exit 0.
    pub fn finish(&mut self) -> Result<(), String> {
        match self.process.take() {
            Some(p) => p.finish(),
            None => Ok(()),
        }
    }

    /// Asks the adapter for `case` (whose ops it all lists), one answer line.
    fn ask(&mut self, case: &Case) -> Result<Vec<Outcome>, String> {
        if self.process.is_none() {
            match handshake(&self.command, self.timeout, self.answer_bytes) {
                Ok((p, _)) => self.process = Some(p),
                Err(e) => {
                    let why = format!("the adapter could not be restarted: {e}");
                    self.unusable = Some(why.clone());
                    return Err(why);
                }
            }
        }
        let process = self.process.as_ref().expect("started above");
        // A line waiting before the request is sent answers nothing asked:
        // the case before was answered twice.
        while let Some(extra) = process.pending_line() {
            blame_extra(&self.recent, &mut self.late, &extra);
        }
        self.last_id += 1;
        let id = self.last_id;
        if self.recent.len() == RECENT {
            self.recent.pop_front();
        }
        self.recent.push_back((id, case.name.clone()));
        let mut request = json!({ "id": id, "case": case.to_json() }).to_string();
        request.push('\n');
        process.send(request);
        // An answer that names another request's id is an extra answer to
        // that one: blamed on it, and this case's own answer still awaited.
        let answer = loop {
            match process.next_line(self.timeout) {
                Ok(line) if answer_id(&line).is_some_and(|other| other != id) => {
                    blame_extra(&self.recent, &mut self.late, &line);
                }
                other => break other,
            }
        };
        let died = matches!(answer, Err(Gone::Died(_)));
        let failure = match answer {
            Ok(line) => match parse_answer(&line, case.ops.len()) {
                Ok(results) => return Ok(results),
                Err(e) => e,
            },
            Err(Gone::Timeout) => format!(
                "the adapter did not answer within {}s (--case-timeout)",
                self.timeout.as_secs_f64()
            ),
            Err(Gone::TooLong) => too_long(self.answer_bytes),
            Err(Gone::Died(why)) => {
                let mut s = "the adapter's stdout ended while it ran this case".to_string();
                if let Some(why) = why {
                    s.push_str(&format!(" ({why})"));
                }
                s
            }
        };
        let mut process = self.process.take().expect("running");
        let tail = process.stderr_tail(died);
        let exited = process.child.try_wait().ok().flatten();
        if exited.is_none() {
            process.kill();
        }
        self.restarts += 1;
        let fate = match exited {
            Some(status) => format!("it exited with {}", describe(status)),
            None => "it was killed".to_string(),
        };
        Err(format!(
            "{failure}; {fate} and is restarted for the next case{tail}"
        ))
    }
}

/// The `id` an answer line echoes, if it does.
fn answer_id(line: &str) -> Option<u64> {
    serde_json::from_str::<Value>(line)
        .ok()?
        .get("id")?
        .as_u64()
}

/// Records an extra answer against the case it answers: the one whose id it
/// echoes, else the last case asked.
fn blame_extra(recent: &VecDeque<(u64, String)>, late: &mut Vec<(String, String)>, line: &str) {
    let named = answer_id(line).and_then(|id| recent.iter().find(|(i, _)| *i == id));
    let Some((_, case)) = named.or(recent.back()) else {
        return;
    };
    late.push((
        case.clone(),
        format!(
            "the adapter answered this case twice; the extra answer: {}",
            cut(line)
        ),
    ));
}

/// Starts the command and reads its handshake line.
fn handshake(
    command: &str,
    timeout: Duration,
    answer_bytes: usize,
) -> Result<(Process, Handshake), String> {
    let process = Process::start(command, answer_bytes)?;
    let line = match process.next_line(timeout) {
        Ok(line) => line,
        Err(gone) => {
            let tail = process.stderr_tail(matches!(gone, Gone::Died(_)));
            let what = match gone {
                Gone::Timeout => format!(
                    "no handshake within {}s (--case-timeout)",
                    timeout.as_secs_f64()
                ),
                Gone::Died(_) => "its stdout ended before a handshake".to_string(),
                Gone::TooLong => too_long(answer_bytes),
            };
            let status = process
                .kill()
                .filter(|s| s.code().is_some())
                .map(|s| format!(" (it exited with {})", describe(s)))
                .unwrap_or_default();
            return Err(format!("adapter `{command}`: {what}{status}{tail}"));
        }
    };
    match Handshake::parse(&line) {
        Ok(h) => Ok((process, h)),
        Err(e) => {
            let tail = process.stderr_tail(false);
            process.kill();
            Err(format!("adapter `{command}`: {e}{tail}"))
        }
    }
}

/// Reads an answer line: `{"results": [...]}` with one result per op, or
/// `{"unsupported": "why"}` for the whole case.
pub fn parse_answer(line: &str, ops: usize) -> Result<Vec<Outcome>, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| {
        format!(
            "the adapter answered a line that is not JSON ({e}): {}",
            cut(line)
        )
    })?;
    let Value::Object(mut m) = v else {
        return Err(format!("the adapter answered {}, not an object", cut(line)));
    };
    // The request's id, echoed; matched by the caller.
    m.remove("id");
    let keys: Vec<&str> = m.keys().map(String::as_str).collect();
    match (keys.as_slice(), m.get("results"), m.get("unsupported")) {
        (["results"], Some(Value::Array(items)), _) => {
            if items.len() != ops {
                return Err(format!(
                    "the adapter answered {} results for the {ops} ops",
                    items.len()
                ));
            }
            let Some(Value::Array(items)) = m.remove("results") else {
                unreachable!("just matched")
            };
            items
                .into_iter()
                .enumerate()
                .map(|(i, item)| {
                    Outcome::from_adapter_json(item)
                        .map_err(|e| format!("the adapter's result for op {i}: {e}"))
                })
                .collect()
        }
        (["unsupported"], _, Some(Value::String(why))) => {
            Ok(vec![Outcome::Unsupported(why.clone()); ops])
        }
        _ => Err(format!(
            "the adapter answered {}, not {{\"results\": [...]}} or {{\"unsupported\": \"why\"}}",
            cut(line)
        )),
    }
}

impl Executor for AdapterExecutor {
    fn name(&self) -> String {
        self.handshake.label()
    }

    fn run(&mut self, case: &Case) -> Result<Vec<Outcome>, ExecError> {
        if let Some(why) = &self.unusable {
            return Err(ExecError::Internal {
                op: None,
                message: why.clone(),
            });
        }
        let n = case.ops.len();
        let subject = case.subject.kind();
        let listed: Vec<bool> = (0..n)
            .map(|i| self.handshake.supports(subject, case.ops.kind(i)))
            .collect();
        // An op the handshake does not list is unsupported, unasked. One
        // that changes no state is left out of the request and the ops
        // after it still asked for; the first that changes state ends the
        // request (the state after it is unknown), it and every op after it
        // unsupported.
        let end = (0..n)
            .find(|&i| !listed[i] && case.ops.changes_state(i))
            .unwrap_or(n);
        let asked: Vec<usize> = (0..end).filter(|&i| listed[i]).collect();
        let answers = if asked.is_empty() {
            Vec::new()
        } else if asked.len() == n {
            self.ask(case)
                .map_err(|message| ExecError::Internal { op: None, message })?
        } else {
            let request = Case {
                ops: case.ops.select(&asked),
                ..case.clone()
            };
            self.ask(&request)
                .map_err(|message| ExecError::Internal { op: None, message })?
        };
        let why = |i: usize| {
            if self.handshake.ops.contains_key(subject) {
                format!(
                    "{} does not list {subject} op `{}` in its handshake",
                    self.handshake.implementation,
                    case.ops.kind(i)
                )
            } else {
                format!(
                    "{} does not list {subject} subjects in its handshake",
                    self.handshake.implementation
                )
            }
        };
        let mut answers = answers.into_iter();
        let results = (0..n)
            .map(|i| match (i < end, listed[i]) {
                // `ask` checked there is one answer per op asked for.
                (true, true) => answers.next().expect("one answer per op asked"),
                (true, false) => Outcome::Unsupported(why(i)),
                (false, _) => Outcome::Unsupported(why(end)),
            })
            .collect();
        Ok(results)
    }
}

impl Drop for AdapterExecutor {
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handshakes_are_checked() {
        let h = Handshake::parse(
            r#"{"protocol":1,"implementation":"x","version":"1","minecraft":"26.1","ops":{"storage":["get"]}}"#,
        )
        .unwrap();
        assert!(h.supports("storage", "get"));
        assert!(!h.supports("storage", "set"));
        assert!(!h.supports("container", "get"));
        assert_eq!(Handshake::parse(&h.to_json().to_string()).unwrap(), h);
        let e = Handshake::parse(r#"{"protocol":2}"#).unwrap_err();
        assert!(e.contains("protocol 2"), "{e}");
        let e = Handshake::parse(r#"{"protocol":1,"implementation":"x","version":"1","minecraft":"26.1","ops":{"storage":"get"}}"#).unwrap_err();
        assert!(e.contains("ops.storage"), "{e}");
    }

    #[test]
    fn lines_are_read_up_to_the_limit_and_no_further() {
        let text = |line: Line| match line {
            Line::Text(s) => s,
            Line::End(why) => format!("end {why:?}"),
            Line::TooLong => "too long".into(),
        };
        let mut r = std::io::BufReader::with_capacity(3, &b"abcd\nabcde\n"[..]);
        assert_eq!(text(read_line(&mut r, 4)), "abcd\n");
        assert_eq!(text(read_line(&mut r, 4)), "too long");
        let mut r = &b"ab\ncd"[..];
        assert_eq!(text(read_line(&mut r, 4)), "ab\n");
        assert_eq!(text(read_line(&mut r, 4)), "cd");
        assert_eq!(text(read_line(&mut r, 4)), "end None");
        let mut r = &b"\xff\n"[..];
        assert!(text(read_line(&mut r, 4)).contains("UTF-8"));
    }

    /// An adapter that shakes hands, then writes without end and no newline:
    /// cut at the limit, its case failed with that reason, and restarted.
    #[test]
    fn a_flood_without_a_newline_is_cut_at_the_limit() {
        let hello = r#"{"protocol":1,"implementation":"flood","version":"1","minecraft":"26.3","ops":{"storage":["size"]}}"#;
        let command = format!("echo '{hello}'; read -r case; yes | tr -d '\\n'");
        let mut a =
            AdapterExecutor::start_bounded(&command, Duration::from_secs(60), 1 << 16).unwrap();
        let case = Case::parse(
            r#"{"name":"t","subject":{"kind":"storage","bits":5,"size":64},"ops":[{"op":"size"}]}"#,
            std::path::Path::new("t.json"),
        )
        .unwrap();
        let e = a.run(&case).unwrap_err().to_string();
        assert!(
            e.contains("a line longer than 65536 bytes, the limit of an answer line"),
            "{e}"
        );
        assert!(e.contains("is restarted for the next case"), "{e}");
    }

    #[test]
    fn answers_need_one_result_per_op() {
        assert_eq!(
            parse_answer(r#"{"results":[{"ok":1},{"unsupported":"no"}]}"#, 2).unwrap(),
            vec![Outcome::Ok(1.into()), Outcome::Unsupported("no".into())]
        );
        assert_eq!(
            parse_answer(r#"{"unsupported":"registry too big"}"#, 2).unwrap(),
            vec![Outcome::Unsupported("registry too big".into()); 2]
        );
        let e = parse_answer(r#"{"results":[{"ok":1}]}"#, 2).unwrap_err();
        assert_eq!(e, "the adapter answered 1 results for the 2 ops");
        assert!(parse_answer("{\"results\":[", 1)
            .unwrap_err()
            .contains("not JSON"));
        assert!(parse_answer(r#"{"results":[{"okay":1}]}"#, 1)
            .unwrap_err()
            .contains("op 0"));
    }
}
