// Interop driver for Bouncy Castle (bcprov / bcpkix jdk18on, Maven Central), through its
// lightweight API: org.bouncycastle.crypto.{generators,params,signers} for ML-DSA,
// org.bouncycastle.crypto.util for SPKI / PKCS#8, bcpkix's PEMParser for PEM.
//
// Usage: java -cp CLASSES:JARS Driver JOBS.json  -- prints one JSON result per job, as a JSON
// array. Jobs are flat JSON objects of strings, booleans and nulls (see interop/run.py).
//
// Bouncy Castle has seeded keys, expanded keys, pure and HashML-DSA (SHA2-512 only) signing,
// deterministic (no random source) and hedged, external mu (generateMu, generateMuSignature,
// verifyMuSignature), SPKI and PKCS#8 in all three RFC 9881 forms.

import java.io.FileReader;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.crypto.CipherParameters;
import org.bouncycastle.crypto.Signer;
import org.bouncycastle.crypto.params.MLDSAParameters;
import org.bouncycastle.crypto.params.MLDSAPrivateKeyParameters;
import org.bouncycastle.crypto.params.MLDSAPublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithContext;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.signers.HashMLDSASigner;
import org.bouncycastle.crypto.signers.MLDSASigner;
import org.bouncycastle.crypto.util.PrivateKeyFactory;
import org.bouncycastle.crypto.util.PrivateKeyInfoFactory;
import org.bouncycastle.crypto.util.PublicKeyFactory;
import org.bouncycastle.crypto.util.SubjectPublicKeyInfoFactory;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.PKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8DecryptorProviderBuilder;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemWriter;

public final class Driver {
    private static final HexFormat HEX = HexFormat.of();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final BouncyCastleProvider PROVIDER = new BouncyCastleProvider();

    /** Thrown for a job this library cannot do; answered as {"unsupported": why}. */
    static final class Unsupported extends Exception {
        private static final long serialVersionUID = 1L;

        Unsupported(String why) {
            super(why);
        }
    }

    /** Hands out the given bytes: the signer's 32-byte rnd, for a signature with a given rnd. */
    static final class FixedRandom extends SecureRandom {
        private static final long serialVersionUID = 1L;
        private final byte[] bytes;

        FixedRandom(byte[] bytes) {
            this.bytes = bytes.clone();
        }

        @Override
        public void nextBytes(byte[] out) {
            if (out.length != bytes.length) throw new IllegalStateException("asked for " + out.length + " random bytes");
            System.arraycopy(bytes, 0, out, 0, out.length);
        }
    }

    static MLDSAParameters params(String alg, boolean prehash) {
        switch (alg) {
            case "ML-DSA-44": return prehash ? MLDSAParameters.ml_dsa_44_with_sha512 : MLDSAParameters.ml_dsa_44;
            case "ML-DSA-65": return prehash ? MLDSAParameters.ml_dsa_65_with_sha512 : MLDSAParameters.ml_dsa_65;
            case "ML-DSA-87": return prehash ? MLDSAParameters.ml_dsa_87_with_sha512 : MLDSAParameters.ml_dsa_87;
            default: throw new IllegalArgumentException("unknown algorithm " + alg);
        }
    }

    static String algName(MLDSAParameters p) {
        String n = p.getName().toUpperCase();
        if (n.contains("44")) return "ML-DSA-44";
        if (n.contains("65")) return "ML-DSA-65";
        if (n.contains("87")) return "ML-DSA-87";
        throw new IllegalArgumentException("unknown parameter set " + p.getName());
    }

    static byte[] b(Map<String, Object> job, String key) {
        Object v = job.get(key);
        return v == null ? new byte[0] : HEX.parseHex((String) v);
    }

    static boolean flag(Map<String, Object> job, String key) {
        return Boolean.TRUE.equals(job.get(key));
    }

    /** The pre-hash of a HashML-DSA job, or null for pure ML-DSA; only SHA2-512 is offered. */
    static String prehash(Map<String, Object> job) throws Unsupported {
        Object ph = job.get("prehash");
        if (ph == null) return null;
        if (!"SHA2-512".equals(ph)) throw new Unsupported("HashML-DSA with SHA2-512 only");
        return (String) ph;
    }

    static MLDSAPrivateKeyParameters key(Map<String, Object> job, boolean prehash) {
        return new MLDSAPrivateKeyParameters(params((String) job.get("alg"), prehash), b(job, "seed"));
    }

    static Signer signer(boolean prehash) {
        return prehash ? new HashMLDSASigner() : new MLDSASigner();
    }

    static byte[] readDer(Map<String, Object> job) throws Exception {
        Path path = Path.of((String) job.get("path"));
        if (!flag(job, "pem")) return Files.readAllBytes(path);
        try (PEMParser p = new PEMParser(new FileReader(path.toFile(), StandardCharsets.US_ASCII))) {
            Object o = p.readObject();
            if (o instanceof SubjectPublicKeyInfo s) return s.getEncoded();
            if (o instanceof PrivateKeyInfo k) return k.getEncoded();
            if (o instanceof PKCS8EncryptedPrivateKeyInfo e) {
                char[] pass = ((String) job.get("passphrase")).toCharArray();
                return e.decryptPrivateKeyInfo(
                        new JceOpenSSLPKCS8DecryptorProviderBuilder().setProvider(PROVIDER).build(pass)).getEncoded();
            }
            throw new IOException("PEMParser returned " + (o == null ? "nothing" : o.getClass().getName()));
        }
    }

    static void writeDer(Map<String, Object> job, String type, byte[] der) throws IOException {
        byte[] out = der;
        if (flag(job, "pem")) {
            StringWriter sw = new StringWriter();
            try (PemWriter w = new PemWriter(sw)) {
                w.writeObject(new PemObject(type, der));
            }
            out = sw.toString().getBytes(StandardCharsets.US_ASCII);
        }
        Files.write(Path.of((String) job.get("path")), out);
    }

    static Map<String, Object> run(Map<String, Object> job) throws Exception {
        Map<String, Object> r = new LinkedHashMap<>();
        String op = (String) job.get("op");
        String alg = (String) job.get("alg");
        switch (op) {
            case "keygen": {
                MLDSAPrivateKeyParameters sk = key(job, false);
                r.put("pk", HEX.formatHex(sk.getPublicKey()));
                r.put("sk", HEX.formatHex(sk.getParametersWithFormat(MLDSAPrivateKeyParameters.EXPANDED_KEY).getEncoded()));
                return r;
            }
            case "sign": {
                boolean ph = prehash(job) != null;
                CipherParameters p = key(job, ph);
                if (job.get("rnd") != null) p = new ParametersWithRandom(p, new FixedRandom(b(job, "rnd")));
                else if (!flag(job, "deterministic")) p = new ParametersWithRandom(p, RANDOM);
                Signer s = signer(ph);
                s.init(true, new ParametersWithContext(p, b(job, "ctx")));
                byte[] msg = b(job, "msg");
                s.update(msg, 0, msg.length);
                r.put("sig", HEX.formatHex(s.generateSignature()));
                return r;
            }
            case "verify": {
                boolean ph = prehash(job) != null;
                Signer s = signer(ph);
                s.init(false, new ParametersWithContext(new MLDSAPublicKeyParameters(params(alg, ph), b(job, "pk")), b(job, "ctx")));
                byte[] msg = b(job, "msg");
                s.update(msg, 0, msg.length);
                r.put("ok", s.verifySignature(b(job, "sig")));
                return r;
            }
            case "mu": {
                MLDSASigner s = new MLDSASigner();
                s.init(false, new ParametersWithContext(new MLDSAPublicKeyParameters(params(alg, false), b(job, "pk")), b(job, "ctx")));
                byte[] msg = b(job, "msg");
                s.update(msg, 0, msg.length);
                r.put("mu", HEX.formatHex(s.generateMu()));
                return r;
            }
            case "sign_mu": {
                CipherParameters p = key(job, false);
                if (!flag(job, "deterministic")) p = new ParametersWithRandom(p, RANDOM);
                MLDSASigner s = new MLDSASigner();
                s.init(true, p);
                r.put("sig", HEX.formatHex(s.generateMuSignature(b(job, "mu"))));
                return r;
            }
            case "verify_mu": {
                MLDSASigner s = new MLDSASigner();
                s.init(false, new MLDSAPublicKeyParameters(params(alg, false), b(job, "pk")));
                r.put("ok", s.verifyMuSignature(b(job, "mu"), b(job, "sig")));
                return r;
            }
            case "read_spki": {
                MLDSAPublicKeyParameters pk = (MLDSAPublicKeyParameters) PublicKeyFactory.createKey(
                        SubjectPublicKeyInfo.getInstance(readDer(job)));
                r.put("alg", algName(pk.getParameters()));
                r.put("pk", HEX.formatHex(pk.getEncoded()));
                return r;
            }
            case "read_pkcs8": {
                MLDSAPrivateKeyParameters sk = (MLDSAPrivateKeyParameters) PrivateKeyFactory.createKey(
                        PrivateKeyInfo.getInstance(readDer(job)));
                r.put("alg", algName(sk.getParameters()));
                r.put("pk", HEX.formatHex(sk.getPublicKey()));
                r.put("sk", HEX.formatHex(sk.getParametersWithFormat(MLDSAPrivateKeyParameters.EXPANDED_KEY).getEncoded()));
                if (sk.getSeed() != null) r.put("seed", HEX.formatHex(sk.getSeed()));
                return r;
            }
            case "write_spki": {
                MLDSAPublicKeyParameters pk = key(job, false).getPublicKeyParameters();
                writeDer(job, "PUBLIC KEY", SubjectPublicKeyInfoFactory.createSubjectPublicKeyInfo(pk).getEncoded());
                return r;
            }
            case "write_pkcs8": {
                int format;
                switch ((String) job.get("form")) {
                    case "seed": format = MLDSAPrivateKeyParameters.SEED_ONLY; break;
                    case "expanded": format = MLDSAPrivateKeyParameters.EXPANDED_KEY; break;
                    case "both": format = MLDSAPrivateKeyParameters.BOTH; break;
                    default: throw new IllegalArgumentException("unknown form");
                }
                MLDSAPrivateKeyParameters sk = key(job, false).getParametersWithFormat(format);
                PrivateKeyInfo info = PrivateKeyInfoFactory.createPrivateKeyInfo(sk);
                if (job.get("passphrase") == null) {
                    writeDer(job, "PRIVATE KEY", info.getEncoded());
                    return r;
                }
                // Encrypted PKCS#8, PEM: PBES2, PBKDF2 and AES-256-CBC; the PRF is bcpkix's default
                // (HMAC-SHA1) unless the job asks for HMAC-SHA256.
                if (!flag(job, "pem")) throw new Unsupported("encrypted keys are written as PEM here");
                JceOpenSSLPKCS8EncryptorBuilder enc = new JceOpenSSLPKCS8EncryptorBuilder(PKCS8Generator.AES_256_CBC)
                        .setProvider(PROVIDER).setPassword(((String) job.get("passphrase")).toCharArray());
                if ("sha256".equals(job.get("prf"))) enc.setPRF(PKCS8Generator.PRF_HMACSHA256);
                PemObject pem = new PKCS8Generator(info, enc.build()).generate();
                StringWriter sw = new StringWriter();
                try (PemWriter w = new PemWriter(sw)) {
                    w.writeObject(pem);
                }
                Files.write(Path.of((String) job.get("path")), sw.toString().getBytes(StandardCharsets.US_ASCII));
                return r;
            }
            default:
                throw new Unsupported("operation " + op);
        }
    }

    public static void main(String[] args) throws Exception {
        String text = Files.readString(Path.of(args[0]));
        List<Object> jobs = Json.parseArray(text);
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < jobs.size(); i++) {
            @SuppressWarnings("unchecked")
            Map<String, Object> job = (Map<String, Object>) jobs.get(i);
            Map<String, Object> r;
            try {
                r = run(job);
            } catch (Unsupported e) {
                r = Map.of("unsupported", e.getMessage());
            } catch (Exception e) {
                r = Map.of("error", e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            if (i > 0) out.append(',');
            Json.write(out, r);
        }
        System.out.print(out.append(']'));
    }

    /** Just enough JSON: arrays of flat objects of strings, booleans and nulls. */
    static final class Json {
        private final String s;
        private int i;

        private Json(String s) {
            this.s = s;
        }

        static List<Object> parseArray(String s) {
            Json j = new Json(s);
            j.ws();
            @SuppressWarnings("unchecked")
            List<Object> v = (List<Object>) j.value();
            return v;
        }

        private void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
        }

        private void expect(char c) {
            ws();
            if (s.charAt(i) != c) throw new IllegalArgumentException("JSON: expected " + c + " at " + i);
            i++;
        }

        private Object value() {
            ws();
            char c = s.charAt(i);
            if (c == '[') {
                i++;
                List<Object> l = new ArrayList<>();
                ws();
                if (s.charAt(i) == ']') { i++; return l; }
                while (true) {
                    l.add(value());
                    ws();
                    if (s.charAt(i++) == ']') return l;
                }
            }
            if (c == '{') {
                i++;
                Map<String, Object> m = new LinkedHashMap<>();
                ws();
                if (s.charAt(i) == '}') { i++; return m; }
                while (true) {
                    ws();
                    String k = string();
                    expect(':');
                    m.put(k, value());
                    ws();
                    if (s.charAt(i++) == '}') return m;
                }
            }
            if (c == '"') return string();
            if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
            if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
            if (s.startsWith("null", i)) { i += 4; return null; }
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            return Long.parseLong(s.substring(start, i));
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') return b.toString();
                if (c == '\\') {
                    char e = s.charAt(i++);
                    switch (e) {
                        case 'n': b.append('\n'); break;
                        case 't': b.append('\t'); break;
                        case 'r': b.append('\r'); break;
                        case 'b': b.append('\b'); break;
                        case 'f': b.append('\f'); break;
                        case 'u': b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
                        default: b.append(e);
                    }
                } else {
                    b.append(c);
                }
            }
        }

        static void write(StringBuilder out, Map<String, Object> m) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : m.entrySet()) {
                if (!first) out.append(',');
                first = false;
                str(out, e.getKey());
                out.append(':');
                Object v = e.getValue();
                if (v instanceof String sv) str(out, sv);
                else out.append(String.valueOf(v));
            }
            out.append('}');
        }

        private static void str(StringBuilder out, String v) {
            out.append('"');
            for (char c : v.toCharArray()) {
                if (c == '"' || c == '\\') out.append('\\').append(c);
                else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                else out.append(c);
            }
            out.append('"');
        }
    }
}
