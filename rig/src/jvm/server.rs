//! The child side: `rig probe-server` holds the one JVM of its process (JNI cannot start a
//! second), started lazily on the first case, and answers one frame per case. Running it in
//! a child means a JVM crash (or a `halt`) loses only the case in flight.

use std::io::{self, BufReader, BufWriter};
use std::path::{Path, PathBuf};

use jni::objects::{Global, JClass, JString, JValue};
use jni::{jni_sig, jni_str, InitArgsBuilder, JNIVersion, JavaVM};
use serde_json::{json, Value};

use super::protocol::{read_frame, write_frame};

/// How the child starts its JVM.
#[derive(Clone, Debug)]
pub struct JvmConfig {
    /// The libjvm to load.
    pub libjvm: PathBuf,
    /// The JDK's feature release (decides which options exist).
    pub version: u32,
    /// The full class path: the compiled probe first, then Minecraft (or the fixture).
    pub classpath: String,
    /// Extra `-D...`/`-X...` options from the user.
    pub options: Vec<String>,
}

struct Jvm {
    vm: JavaVM,
    probe: Global<JClass<'static>>,
}

impl Jvm {
    fn start(config: &JvmConfig) -> Result<Jvm, String> {
        let mut args = InitArgsBuilder::new()
            .version(JNIVersion::V1_8)
            .option(format!("-Djava.class.path={}", config.classpath))
            .option("-Xss4m")
            // HotSpot's own warnings go to stdout unless told otherwise: stdout is the channel.
            .option("-XX:+DisplayVMOutputToStderr")
            // C1 only: on 2 cores the C2 compiler's warm-up costs more than it gains over a
            // golden-set run (measured in BENCHMARKS.md); --jvm-option can turn it back on.
            .option("-XX:TieredStopAtLevel=1")
            // C2 drops the message (and stack) of an implicit exception it has seen thrown
            // often at one place; a message is part of a result, so it must stay whoever
            // compiles the code (--jvm-option may turn C2 on).
            .option("-XX:-OmitStackTraceInFastThrow")
            // Keep library logging off the protocol channel and out of the report.
            .option("-Dlog4j2.level=OFF")
            .option("-Dlog4j2.statusLoggerLevel=OFF")
            .option("-Dorg.slf4j.simpleLogger.defaultLogLevel=off")
            .option("-Djava.util.logging.config.file=/dev/null")
            // A crash report goes to the temp folder, not into the user's working tree.
            .option(format!(
                "-XX:ErrorFile={}",
                std::env::temp_dir()
                    .join("rig-probe-hs_err_pid%p.log")
                    .display()
            ))
            .option("-XX:-CreateCoredumpOnCrash");
        // The serial collector unless the user picks one (HotSpot refuses two): G1's
        // concurrent threads cost a child batch-running cases beside its sibling regimes and
        // the rig about 40% of its CPU on 2 cores (BENCHMARKS.md), and no result depends on
        // the collector.
        if !config.options.iter().any(|o| names_a_collector(o)) {
            args = args.option("-XX:+UseSerialGC");
        }
        if config.version >= 24 {
            // Minecraft's libraries (netty, fastutil) still use sun.misc.Unsafe.
            args = args.option("--sun-misc-unsafe-memory-access=allow");
        }
        for o in &config.options {
            args = args.option(o.clone());
        }
        let args = args.build().map_err(|e| format!("bad JVM option: {e}"))?;
        let libjvm = config.libjvm.clone();
        let vm = JavaVM::with_libjvm(args, || Ok(libjvm))
            .map_err(|e| format!("cannot start the JVM from {}: {e}", config.libjvm.display()))?;
        let probe = vm
            .attach_current_thread(|env| -> jni::errors::Result<_> {
                let class = env.find_class(jni_str!("paletted/probe/Probe"))?;
                env.new_global_ref(class)
            })
            .map_err(|e| format!("cannot load the probe class paletted.probe.Probe: {e}"))?;
        Ok(Jvm { vm, probe })
    }

    /// Whether the class (binary name with `/`) can be loaded; a failed lookup leaves no
    /// pending exception.
    fn loads(&self, class: &str) -> bool {
        let name = jni::strings::JNIString::new(class);
        self.vm
            .attach_current_thread(|env| -> jni::errors::Result<bool> {
                let found = env.find_class(&name).is_ok();
                if env.exception_check() {
                    env.exception_clear();
                }
                Ok(found)
            })
            .unwrap_or(false)
    }

    /// One whole case through the probe; the probe catches every Throwable itself, so an
    /// error here is a JNI failure, not a Java exception from an op.
    fn run(&self, request: &str) -> Result<String, String> {
        self.vm
            .attach_current_thread(|env| -> jni::errors::Result<String> {
                let input = env.new_string(request)?;
                let out = env
                    .call_static_method(
                        &self.probe,
                        jni_str!("run"),
                        jni_sig!("(Ljava/lang/String;)Ljava/lang/String;"),
                        &[JValue::Object(&input)],
                    )?
                    .l()?;
                let out = env.cast_local::<JString>(out)?;
                out.try_to_string(env)
            })
            .map_err(|e| format!("JNI call to Probe.run failed: {e}"))
    }
}

/// Serves frames on stdin/stdout until stdin closes. Each request is a case's text as it is,
/// or a JSON object (`{"case": TEXT}`, `{"loads": CLASS}`, `{"time_empty": N}`); each answer
/// is the probe's JSON (a results array or `{"probe_error": ..}`) or `{"fatal": ..}`.
/// Whether a JVM option selects a garbage collector (HotSpot's `-XX:+Use<Name>GC`).
fn names_a_collector(option: &str) -> bool {
    const COLLECTORS: [&str; 7] = [
        "Serial",
        "Parallel",
        "G1",
        "Z",
        "Shenandoah",
        "Epsilon",
        "ConcMarkSweep",
    ];
    option
        .strip_prefix("-XX:+Use")
        .and_then(|rest| rest.strip_suffix("GC"))
        .is_some_and(|name| COLLECTORS.contains(&name))
}

pub fn serve(config: JvmConfig) -> io::Result<()> {
    let mut input = BufReader::new(io::stdin().lock());
    let mut output = BufWriter::new(io::stdout().lock());
    let mut jvm: Option<Result<Jvm, String>> = None;
    while let Some(frame) = read_frame(&mut input)? {
        // A case's lines as they are (the common frame, parsed by the probe alone).
        if frame.first() != Some(&b'{') {
            let answer = match std::str::from_utf8(&frame) {
                Ok(text) => run_case(&mut jvm, &config, text),
                Err(e) => json!({"fatal": format!("bad request frame: {e}")}).to_string(),
            };
            write_frame(&mut output, answer.as_bytes())?;
            continue;
        }
        let request: Value = match serde_json::from_slice(&frame) {
            Ok(v) => v,
            Err(e) => {
                let answer = json!({"fatal": format!("bad request frame: {e}")});
                write_frame(&mut output, answer.to_string().as_bytes())?;
                continue;
            }
        };
        // `{"loads": "a/b/C"}`: whether the JVM can load that class (the fixture's marker).
        if let Some(class) = request.get("loads").and_then(Value::as_str) {
            let answer = match jvm.get_or_insert_with(|| Jvm::start(&config)) {
                Ok(vm) => json!({ "loadable": vm.loads(class) }),
                Err(e) => json!({"fatal": e, "start": true}),
            };
            write_frame(&mut output, answer.to_string().as_bytes())?;
            continue;
        }
        // `{"time_empty": N}`: N empty requests through JNI, timed here (rig bench).
        let empty_calls = request.get("time_empty").and_then(Value::as_u64);
        let Some(text) = request
            .get("case")
            .and_then(Value::as_str)
            .or(empty_calls.map(|_| "ping"))
        else {
            let answer = json!({"fatal": "a request is {\"case\": TEXT} or {\"time_empty\": N}"});
            write_frame(&mut output, answer.to_string().as_bytes())?;
            continue;
        };
        let answer = match empty_calls {
            Some(n) => with_jvm(&mut jvm, &config, |vm| time_empty(vm, n)),
            None => run_case(&mut jvm, &config, text),
        };
        write_frame(&mut output, answer.as_bytes())?;
    }
    Ok(())
}

/// One case through the probe: its answer, or `{"fatal": ..}`.
fn run_case(jvm: &mut Option<Result<Jvm, String>>, config: &JvmConfig, text: &str) -> String {
    with_jvm(jvm, config, |vm| vm.run(text))
}

/// `call`'s answer on the JVM, started first if it is not running; `{"fatal": ..}` if the
/// call fails, with `"start": true` if the JVM would not start.
fn with_jvm(
    jvm: &mut Option<Result<Jvm, String>>,
    config: &JvmConfig,
    call: impl FnOnce(&Jvm) -> Result<String, String>,
) -> String {
    match jvm.get_or_insert_with(|| Jvm::start(config)) {
        Ok(vm) => call(vm).unwrap_or_else(|e| json!({"fatal": e}).to_string()),
        Err(e) => json!({"fatal": e, "start": true}).to_string(),
    }
}

/// The mean time of one empty request (`ping`) through JNI, after as many calls to warm up.
fn time_empty(vm: &Jvm, calls: u64) -> Result<String, String> {
    let calls = calls.max(1);
    for _ in 0..calls {
        vm.run("ping")?;
    }
    let start = std::time::Instant::now();
    for _ in 0..calls {
        vm.run("ping")?;
    }
    let ns = start.elapsed().as_nanos() as f64 / calls as f64;
    Ok(json!({ "ns_per_call": ns, "calls": calls }).to_string())
}

/// The child's entry point: reads the start frame, then serves cases.
pub fn serve_stdio() -> Result<(), String> {
    let mut stdin = std::io::stdin().lock();
    let hello = read_frame(&mut stdin)
        .map_err(|e| format!("probe-server: cannot read the start frame: {e}"))?
        .ok_or("probe-server: no start frame (this command is run by rig itself)")?;
    drop(stdin);
    let hello: Value = serde_json::from_slice(&hello)
        .map_err(|e| format!("probe-server: bad start frame: {e}"))?;
    let field = |name: &str| {
        hello
            .get(name)
            .ok_or_else(|| format!("probe-server: the start frame lacks `{name}`"))
    };
    let config = JvmConfig {
        libjvm: Path::new(field("libjvm")?.as_str().unwrap_or_default()).to_path_buf(),
        version: field("version")?.as_u64().unwrap_or(0) as u32,
        classpath: field("classpath")?.as_str().unwrap_or_default().to_string(),
        options: field("options")?
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|o| o.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default(),
    };
    serve(config).map_err(|e| format!("probe-server: {e}"))
}

#[cfg(test)]
mod tests {
    use super::names_a_collector;

    #[test]
    fn a_collector_the_user_picks_is_seen() {
        for o in [
            "-XX:+UseG1GC",
            "-XX:+UseZGC",
            "-XX:+UseParallelGC",
            "-XX:+UseSerialGC",
        ] {
            assert!(names_a_collector(o), "{o}");
        }
        for o in [
            "-XX:-UseG1GC",
            "-XX:+UseGCOverheadLimit",
            "-Xmx1g",
            "-XX:+UseCompressedOops",
        ] {
            assert!(!names_a_collector(o), "{o}");
        }
    }
}
