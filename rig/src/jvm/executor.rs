//! The parent side: [`JvmExecutor`] runs cases through Minecraft's classes by way of a
//! `rig probe-server` child. A child that dies takes only its case with it: the case is
//! reported as the one that killed it and the next case starts a fresh child.

use std::io::{BufReader, BufWriter};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use harness::case::Case;
use harness::exec::{ExecError, Executor};
use harness::outcome::Outcome;
use serde_json::{json, Value};

use super::protocol::{probe_request, read_frame, write_frame};
use super::server::JvmConfig;
use super::shape::Shape;
use super::{jdk, probe};

/// Where the JVM side gets its classes, and what its results are called.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Minecraft's classes and libraries (or the test fixture).
    pub classpath: Vec<PathBuf>,
    /// Extra JVM options (`-Dfixture.plant=...`, `-Xmx2g`).
    pub jvm_options: Vec<String>,
    /// Provenance of the results: the jar's version and SHA-1, or the user's `--source`.
    pub source: String,
    /// The cache for the compiled probe.
    pub cache: PathBuf,
    /// The Minecraft version, when a jar named it.
    pub minecraft_version: Option<String>,
    /// The SHA-1 of the jar given with --minecraft.
    pub jar_sha1: Option<String>,
    /// Which cases the classes can run: of their version.
    pub classes: ClassesVersion,
    /// Whether the class path holds the rig's own test fixture (never Minecraft truth).
    pub fixture: bool,
    /// How long one case may take on the JVM side before its child is killed.
    pub case_timeout: Duration,
}

impl Setup {
    /// Marks the results as the test fixture's: never Minecraft truth.
    pub fn mark_fixture(&mut self) {
        if !self.fixture {
            self.fixture = true;
            self.source = format!(
                "{} (rig/tests/fixture, a stand-in, not Minecraft): {}",
                harness::snapshot::FIXTURE_SOURCE,
                self.source
            );
        }
    }
}

/// The Minecraft version of the classes the probe runs, as far as it is known, and their API
/// shape, and so which cases they can run: a case of another version than the classes' would
/// run the wrong version's code and is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassesVersion {
    /// Named by the jar's `version.json` or --classes-version; `None` for a --classpath or the
    /// test fixture.
    name: Option<String>,
    /// The API shape the probe is compiled for.
    shape: Shape,
}

impl ClassesVersion {
    /// From --classes-version and the jar's version (both, if given, must agree) and the
    /// classes' API shape.
    pub fn new(
        told: Option<&str>,
        jar: Option<&str>,
        shape: Shape,
    ) -> Result<ClassesVersion, String> {
        let name = match (told, jar) {
            (Some(told), Some(jar)) if told != jar => {
                return Err(format!(
                    "--classes-version {told}, but the jar says it is {jar}"
                ))
            }
            (Some(v), _) | (None, Some(v)) => Some(v.to_string()),
            (None, None) => None,
        };
        Ok(ClassesVersion { name, shape })
    }

    /// The API shape of the classes.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// `None` if a case of `version` runs on these classes, else why not. Classes named
    /// as a version the rig knows run its cases only. Unnamed ones, or ones named otherwise
    /// (a snapshot, `26.3-pre1`), of 26.x's shape are taken to be 26.x and run its cases;
    /// of an older shape they run none: that shape spans versions whose rules differ
    /// (1.20.1 and 1.21.4 are both of the 1.19 to 1.21.x shape), so their version must be
    /// named with --classes-version.
    pub fn refuses(&self, version: paletted::Version) -> Option<String> {
        match self.name.as_deref().and_then(paletted::Version::named) {
            Some(classes) if classes == version => None,
            Some(classes) => Some(format!(
                "the classes are {classes}'s; this case is {version}"
            )),
            None if self.shape != Shape::V26 => Some(format!(
                "the classes are of the {} API shape, which spans versions of different rules: \
                 name their version with --classes-version (this case is {version})",
                self.shape.span()
            )),
            None if version.rules() >= paletted::Rules::V26_1 => None,
            None => Some(format!(
                "the probe runs 26.x classes; this case is {version} (name the classes' \
                 version with --classes-version if they are {version}'s)"
            )),
        }
    }
}

/// How long a child's JVM may take to start (and load the probe), apart from the case time.
const START_TIMEOUT: Duration = Duration::from_secs(300);

struct Server {
    child: Child,
    input: BufWriter<ChildStdin>,
    /// Frames from the child, read on their own thread so a hung JVM can be timed out;
    /// `None` at the end of the stream.
    frames: Receiver<Option<Vec<u8>>>,
}

/// Runs cases on the JVM side, one child process at a time.
pub struct JvmExecutor {
    config: JvmConfig,
    source: String,
    classes: ClassesVersion,
    server: Option<Server>,
    case_timeout: Duration,
    /// How many children died or were killed (each took one case with it).
    pub crashes: usize,
    /// Why the JVM cannot start, once it has failed to.
    unusable: Option<String>,
    /// Counts the children started: a case sent ahead is answered only by the child that
    /// took it.
    generation: u64,
}

/// A case's results, or why it could not run.
pub type Run = Result<Vec<Outcome>, ExecError>;

/// The probe's answer to a case: exactly the text it was held to, or its results read.
pub enum Answer {
    /// The answer was byte for byte the text given: the same results.
    Same,
    /// The results, or why there are none.
    Run(Run),
}

/// Cases of one batch (see [`JvmExecutor::send`]): their requests, and which child took
/// each ahead of its turn.
pub struct Batch {
    requests: Vec<Result<String, ExecError>>,
    /// Each case's op count: the probe answers one result an op.
    ops: Vec<usize>,
    /// The generation of the child each case was sent to, if it was sent ahead.
    sent: Vec<Option<u64>>,
}

/// At most this many bytes of requests go ahead of the answers: the pipe to the child holds
/// them even while it hangs, so sending ahead never blocks where one case at a time would not.
const AHEAD_BYTES: usize = 32 << 10;

impl JvmExecutor {
    /// Finds a JDK and compiles the probe against the class path. The JVM itself starts
    /// lazily, in the child, on the first case.
    pub fn new(setup: &Setup) -> Result<JvmExecutor, String> {
        let jdk = jdk::find().map_err(|e| e.to_string())?;
        let classes = probe::compile(&jdk, &setup.classpath, &setup.cache, setup.classes.shape())?;
        let mut full = vec![classes];
        full.extend(setup.classpath.iter().cloned());
        Ok(JvmExecutor {
            config: JvmConfig {
                libjvm: jdk.libjvm(),
                version: jdk.version,
                classpath: probe::join_classpath(&full)?,
                options: quiet_logging(&setup.cache)?
                    .into_iter()
                    .chain(setup.jvm_options.iter().cloned())
                    .collect(),
            },
            source: setup.source.clone(),
            classes: setup.classes.clone(),
            server: None,
            case_timeout: setup.case_timeout,
            unusable: None,
            crashes: 0,
            generation: 0,
        })
    }

    /// Another executor of the same setup, with a child of its own (started on its first
    /// case): JNI allows one JVM a process, so cases run at once each need a child.
    pub fn sibling(&self) -> JvmExecutor {
        JvmExecutor {
            config: self.config.clone(),
            source: self.source.clone(),
            classes: self.classes.clone(),
            server: None,
            case_timeout: self.case_timeout,
            crashes: 0,
            unusable: None,
            generation: 0,
        }
    }

    /// A sibling (see [`JvmExecutor::sibling`]) whose JVM also gets `options`, after the
    /// user's (an identity-hash regime's, [`super::regimes`]).
    pub fn sibling_with(&self, options: &[String]) -> JvmExecutor {
        let mut sibling = self.sibling();
        sibling.config.options.extend(options.iter().cloned());
        sibling
    }

    fn spawn(&mut self) -> Result<Server, String> {
        self.generation += 1;
        // /proc/self/exe still runs this very binary when a rebuild has replaced the file.
        let proc_exe = Path::new("/proc/self/exe");
        let exe = if proc_exe.exists() {
            proc_exe.to_path_buf()
        } else {
            std::env::current_exe().map_err(|e| format!("cannot find the rig binary: {e}"))?
        };
        let mut child = Command::new(&exe)
            .arg("probe-server")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {} probe-server: {e}", exe.display()))?;
        let mut input = BufWriter::new(child.stdin.take().expect("piped stdin"));
        let mut output = BufReader::new(child.stdout.take().expect("piped stdout"));
        let (tx, frames) = mpsc::channel();
        std::thread::spawn(move || loop {
            match read_frame(&mut output) {
                Ok(Some(frame)) => {
                    if tx.send(Some(frame)).is_err() {
                        return;
                    }
                }
                _ => {
                    let _ = tx.send(None);
                    return;
                }
            }
        });
        let hello = json!({
            "libjvm": self.config.libjvm,
            "version": self.config.version,
            "classpath": self.config.classpath,
            "options": self.config.options,
        });
        if let Err(e) = write_frame(&mut input, hello.to_string().as_bytes()) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("cannot talk to the probe server: {e}"));
        }
        Ok(Server {
            child,
            input,
            frames,
        })
    }

    /// Sends one request and waits for its answer; `Err` means the child is gone.
    fn exchange(&mut self, request: &str) -> Result<Vec<u8>, String> {
        self.exchange_frame(request)
    }

    /// Sends a frame other than a case (`rig bench`'s timing requests: `{"case": "bench ..."}`,
    /// `{"time_empty": N}`) and returns the probe's JSON object; a probe error or a dead child
    /// is `Err` with its reason.
    pub fn call(&mut self, frame: &Value) -> Result<Value, String> {
        if let Some(why) = &self.unusable {
            return Err(why.clone());
        }
        let bytes = self.exchange_frame(&frame.to_string())?;
        let answer: Value = serde_json::from_slice(&bytes)
            .map_err(|e| format!("the probe answered with bad JSON: {e}"))?;
        if let Some(why) = answer.get("fatal").or_else(|| answer.get("probe_error")) {
            let why = why.as_str().unwrap_or("the probe failed").to_string();
            if answer.get("fatal").is_some() {
                self.shutdown();
            }
            if answer.get("start").and_then(Value::as_bool) == Some(true) {
                self.unusable = Some(why.clone());
            }
            return Err(why);
        }
        Ok(answer)
    }

    fn exchange_frame(&mut self, frame: &str) -> Result<Vec<u8>, String> {
        if self.server.is_none() {
            self.server = Some(self.spawn()?);
            // The JVM starts before the case is sent, so --case-timeout times the case alone,
            // never a JVM start slowed by a loaded machine. A start that fails answers for
            // the case.
            let server = self.server.as_mut().expect("just started");
            let start = json!({ "loads": super::FIXTURE_MARK }).to_string();
            let answer = match write_frame(&mut server.input, start.as_bytes()) {
                Ok(()) => server.frames.recv_timeout(START_TIMEOUT),
                Err(_) => Err(RecvTimeoutError::Disconnected),
            };
            match answer {
                Ok(Some(bytes))
                    if serde_json::from_slice::<Value>(&bytes)
                        .is_ok_and(|v| v.get("fatal").is_some()) =>
                {
                    return Ok(bytes)
                }
                Ok(Some(_)) => {}
                Err(RecvTimeoutError::Timeout) => {
                    let mut server = self.server.take().expect("running");
                    let _ = server.child.kill();
                    let _ = server.child.wait();
                    return Err(format!(
                        "the JVM did not start within {}s",
                        START_TIMEOUT.as_secs()
                    ));
                }
                Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                    return self.child_died();
                }
            }
        }
        let server = self.server.as_mut().expect("just started");
        match write_frame(&mut server.input, frame.as_bytes()) {
            Ok(()) => self.next_answer(),
            Err(_) => self.child_died(),
        }
    }

    /// The running child's next answer, within --case-timeout; `Err` means the child is gone.
    fn next_answer(&mut self) -> Result<Vec<u8>, String> {
        let server = self.server.as_mut().expect("running");
        match server.frames.recv_timeout(self.case_timeout) {
            Ok(Some(bytes)) => Ok(bytes),
            Err(RecvTimeoutError::Timeout) => {
                let mut server = self.server.take().expect("running");
                let _ = server.child.kill();
                let _ = server.child.wait();
                self.crashes += 1;
                Err(format!(
                    "the JVM side did not answer within {}s (--case-timeout); it was killed and is restarted for the next case",
                    self.case_timeout.as_secs_f64()
                ))
            }
            Ok(None) | Err(RecvTimeoutError::Disconnected) => self.child_died(),
        }
    }

    /// The child is gone: reaps it and says how it ended.
    fn child_died(&mut self) -> Result<Vec<u8>, String> {
        let mut server = self.server.take().expect("running");
        drop(server.input);
        let status = server.child.wait().map_or_else(
            |e| format!("unknown ({e})"),
            |s| match (s.code(), std::os::unix::process::ExitStatusExt::signal(&s)) {
                (Some(c), _) => format!("exit code {c}"),
                (None, Some(sig)) => format!("signal {sig}"),
                _ => s.to_string(),
            },
        );
        self.crashes += 1;
        Err(format!(
            "the JVM side died while running this case ({status}); it is restarted for the next case"
        ))
    }

    /// Why no case can run here (the JVM would not start), once that is known; commands
    /// stop the run then, rather than fail every case the same way.
    pub fn unusable(&self) -> Option<&str> {
        self.unusable.as_deref()
    }

    /// Starts a batch of cases: while a child runs, as many as fit
    /// [`AHEAD_BYTES`] are sent to it at once, so it works while the caller does (the other
    /// side of the comparison); [`JvmExecutor::finish`] gives the results. The child answers
    /// in order, so a child that dies or hangs is charged to the case it was on, as when
    /// cases go one at a time, and the cases after it go to a fresh child.
    pub fn send(&mut self, cases: &[&Case]) -> Batch {
        let mut batch = Batch {
            requests: cases
                .iter()
                .map(|case| {
                    if let Some(reason) = self.classes.refuses(case.subject.version()) {
                        return Err(ExecError::Unsupported { op: None, reason });
                    }
                    probe_request(case).map_err(|(op, reason)| ExecError::Invalid { op, reason })
                })
                .collect(),
            ops: cases.iter().map(|case| case.ops.len()).collect(),
            sent: vec![None; cases.len()],
        };
        self.send_ahead(&mut batch, 0);
        batch
    }

    /// Sends the batch's cases from `from` on that the running child has not taken, within
    /// [`AHEAD_BYTES`].
    fn send_ahead(&mut self, batch: &mut Batch, from: usize) {
        if self.unusable.is_some() {
            return;
        }
        let generation = self.generation;
        let Some(server) = self.server.as_mut() else {
            return;
        };
        let mut bytes = 0;
        for (request, sent) in batch.requests[from..].iter().zip(&mut batch.sent[from..]) {
            let Ok(request) = request else { continue };
            if *sent == Some(generation) {
                continue;
            }
            bytes += request.len() + 4;
            if bytes > AHEAD_BYTES || write_frame(&mut server.input, request.as_bytes()).is_err() {
                // A child that is gone shows when its answer is awaited.
                return;
            }
            *sent = Some(generation);
        }
    }

    /// The results of a batch, in its order, each with why no further case can run (the JVM
    /// will not start), as known right after it. The probe's answer to case `i` may be
    /// exactly `texts[i]` (the other side's results in the golden list's compact form, as the
    /// probe writes them): then it is [`Answer::Same`], not read at all. Any other answer is
    /// read into results.
    pub fn finish(
        &mut self,
        mut batch: Batch,
        texts: &[Option<Vec<u8>>],
    ) -> Vec<(Answer, Option<String>)> {
        let mut out = Vec::with_capacity(batch.requests.len());
        for i in 0..batch.requests.len() {
            let text = texts.get(i).and_then(Option::as_deref);
            let answer = self.finish_one(&mut batch, i, text);
            out.push((answer, self.unusable.clone()));
        }
        out
    }

    fn finish_one(&mut self, batch: &mut Batch, i: usize, text: Option<&[u8]>) -> Answer {
        if let Some(why) = &self.unusable {
            return Answer::Run(Err(ExecError::Internal {
                op: None,
                message: why.clone(),
            }));
        }
        let request = match &mut batch.requests[i] {
            Ok(request) => std::mem::take(request),
            Err(e) => return Answer::Run(Err(e.clone())),
        };
        let bytes = if self.server.is_some() && batch.sent[i] == Some(self.generation) {
            self.next_answer()
        } else {
            // Not taken by the running child (none ran, or the one that took it is gone):
            // this case alone, then the rest of the batch goes ahead to the child now running.
            let answer = self.exchange(&request);
            self.send_ahead(batch, i + 1);
            answer
        };
        let bytes = match bytes {
            Ok(bytes) => bytes,
            Err(message) => return Answer::Run(Err(ExecError::Internal { op: None, message })),
        };
        if text == Some(bytes.as_slice()) {
            return Answer::Same;
        }
        Answer::Run(
            self.results(&bytes)
                .and_then(|results| one_an_op(results, batch.ops[i])),
        )
    }

    /// A case's answer from the probe, as results.
    fn results(&mut self, bytes: &[u8]) -> Result<Vec<Outcome>, ExecError> {
        if let Some(results) = harness::outcome::golden_list(bytes) {
            return match results.iter().enumerate().find_map(|(i, o)| refused(i, o)) {
                Some(e) => Err(e),
                None => Ok(results),
            };
        }
        let answer: Value = serde_json::from_slice(bytes).map_err(|e| ExecError::Internal {
            op: None,
            message: format!("the probe answered with bad JSON: {e}"),
        })?;
        let items = match answer {
            Value::Array(items) => items,
            Value::Object(m) => {
                let message = m
                    .get("fatal")
                    .or_else(|| m.get("probe_error"))
                    .and_then(Value::as_str)
                    .unwrap_or("the probe failed")
                    .to_string();
                if m.contains_key("fatal") {
                    self.shutdown();
                }
                // A JVM that will not start will not start for the next case either.
                if m.get("start").and_then(Value::as_bool) == Some(true) {
                    self.unusable = Some(message.clone());
                }
                return Err(ExecError::Internal { op: None, message });
            }
            other => {
                return Err(ExecError::Internal {
                    op: None,
                    message: format!("the probe answered {other}"),
                })
            }
        };
        let mut results = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            let outcome =
                Outcome::from_golden_json(item).map_err(|message| ExecError::Internal {
                    op: Some(i),
                    message: format!("the probe's result is not in the golden form: {message}"),
                })?;
            if let Some(e) = refused(i, &outcome) {
                return Err(e);
            }
            results.push(outcome);
        }
        Ok(results)
    }

    /// Whether the JVM side loads the test fixture's marker class
    /// ([`super::FIXTURE_MARK`]); starts the JVM if it is not running.
    pub fn loads_fixture(&mut self) -> Result<bool, String> {
        let answer = self.call(&json!({ "loads": super::FIXTURE_MARK }))?;
        answer
            .get("loadable")
            .and_then(Value::as_bool)
            .ok_or_else(|| format!("the probe server answered {answer} to a class lookup"))
    }

    /// Stops the child, if one runs.
    pub fn shutdown(&mut self) {
        if let Some(mut server) = self.server.take() {
            // End of input ends the child; one that does not end within 5 s is killed.
            drop(server.input);
            for _ in 0..500 {
                if !matches!(server.child.try_wait(), Ok(None)) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = server.child.kill();
            let _ = server.child.wait();
        }
    }
}

/// The results, if there is one for each of the case's `ops`: a short list would otherwise
/// leave its last ops uncompared.
fn one_an_op(results: Vec<Outcome>, ops: usize) -> Result<Vec<Outcome>, ExecError> {
    if results.len() == ops {
        return Ok(results);
    }
    Err(ExecError::Internal {
        op: None,
        message: format!(
            "the probe answered {} results for the {ops} ops",
            results.len()
        ),
    })
}

/// Why the case is invalid, when the probe refused op `i` (`ProbeRefusal`): its API cannot
/// be given what the op asks.
fn refused(i: usize, outcome: &Outcome) -> Option<ExecError> {
    match outcome {
        Outcome::Throws { class, message } if class == "ProbeRefusal" => Some(ExecError::Invalid {
            op: Some(i),
            reason: message.clone().unwrap_or_default(),
        }),
        _ => None,
    }
}

impl Drop for JvmExecutor {
    fn drop(&mut self) {
        self.shutdown();
    }
}

impl Executor for JvmExecutor {
    fn name(&self) -> String {
        format!("jvm ({})", self.source)
    }

    fn run(&mut self, case: &Case) -> Result<Vec<Outcome>, ExecError> {
        let batch = self.send(&[case]);
        match self
            .finish(batch, &[])
            .pop()
            .expect("one case, one result")
            .0
        {
            Answer::Run(run) => run,
            Answer::Same => unreachable!("no text to be the same as"),
        }
    }
}

/// A log4j2 configuration that logs nothing, written into the cache: Minecraft's jar carries
/// its own configuration, which only an explicit `log4j2.configurationFile` overrides.
fn quiet_logging(cache: &Path) -> Result<Vec<String>, String> {
    let file = cache.join("log4j2-off.xml");
    let text =
        "<Configuration status=\"OFF\"><Loggers><Root level=\"off\"/></Loggers></Configuration>\n";
    if std::fs::read_to_string(&file).ok().as_deref() != Some(text) {
        std::fs::create_dir_all(cache)
            .and_then(|()| std::fs::write(&file, text))
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    }
    Ok(vec![format!(
        "-Dlog4j2.configurationFile={}",
        file.display()
    )])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_of_another_version_than_the_classes_is_refused() {
        use paletted::Version;
        let unnamed = ClassesVersion::new(None, None, Shape::V26).unwrap();
        assert_eq!(unnamed.refuses(Version::V26_3), None);
        assert_eq!(unnamed.refuses(Version::V26_1), None);
        let why = unnamed.refuses(Version::V1_20_1).unwrap();
        assert!(
            why.starts_with("the probe runs 26.x classes; this case is 1.20.1"),
            "{why}"
        );
        let told = ClassesVersion::new(Some("1.20.1"), None, Shape::V1_19).unwrap();
        assert_eq!(told.refuses(Version::V1_20_1), None);
        assert_eq!(
            told.refuses(Version::V26_3).unwrap(),
            "the classes are 1.20.1's; this case is 26.3"
        );
        let jar = ClassesVersion::new(None, Some("26.3"), Shape::V26).unwrap();
        assert_eq!(jar.refuses(Version::V26_3), None);
        assert!(jar.refuses(Version::V1_21_4).is_some());
        assert!(ClassesVersion::new(Some("1.20.1"), Some("26.3"), Shape::V26).is_err());
        // A name the rig does not know is taken to be 26.x's shape.
        let snapshot = ClassesVersion::new(None, Some("26.3-pre1"), Shape::V26).unwrap();
        assert_eq!(snapshot.refuses(Version::V26_3), None);
        assert!(snapshot.refuses(Version::V1_20_1).is_some());
        // Unnamed classes of an older shape run nothing until their version is named.
        for shape in [Shape::V1_19, Shape::V1_18] {
            let older = ClassesVersion::new(None, None, shape).unwrap();
            for v in Version::ALL {
                let why = older.refuses(v).unwrap();
                assert!(why.contains("--classes-version"), "{why}");
            }
        }
    }

    #[test]
    fn an_answer_with_a_result_missing_or_extra_is_an_error() {
        let two = vec![Outcome::Ok(Value::Null), Outcome::Ok(Value::Null)];
        assert_eq!(one_an_op(two.clone(), 2).unwrap(), two);
        for ops in [1, 3] {
            let e = one_an_op(two.clone(), ops).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("internal error: the probe answered 2 results for the {ops} ops")
            );
        }
    }
}
