// Interop driver for filippo.io/mldsa (Go module proxy): the standalone build of the Go
// standard library's ML-DSA (crypto/mldsa from Go 1.27; Go 1.26 has it only as
// crypto/internal/fips140/mldsa, which is not importable).
//
// Usage: driver JOBS.json  -- prints one JSON result per job, as a JSON array.
//
// The package has seeded keys, pure ML-DSA with a context, hedged and deterministic signing,
// signing an external mu, SPKI and seed-only PKCS#8 (filippo.io/mldsa/x509). No HashML-DSA, no
// expanded private keys, no mu computation or external-mu verification.
package main

import (
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"

	"filippo.io/mldsa"
	"filippo.io/mldsa/mldsacrypto"
	"filippo.io/mldsa/x509"
)

type job map[string]any

var algs = map[string]mldsa.Parameters{
	"ML-DSA-44": mldsa.MLDSA44(),
	"ML-DSA-65": mldsa.MLDSA65(),
	"ML-DSA-87": mldsa.MLDSA87(),
}

func (j job) bytes(k string) []byte {
	s, _ := j[k].(string)
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(fmt.Sprintf("bad hex in %s", k))
	}
	return b
}

func (j job) str(k string) string { s, _ := j[k].(string); return s }
func (j job) flag(k string) bool  { v, _ := j[k].(bool); return v }

func (j job) key() *mldsa.PrivateKey {
	sk, err := mldsa.NewPrivateKey(algs[j.str("alg")], j.bytes("seed"))
	if err != nil {
		panic(err)
	}
	return sk
}

func readDER(j job, typ string) []byte {
	data, err := os.ReadFile(j.str("path"))
	if err != nil {
		panic(err)
	}
	if !j.flag("pem") {
		return data
	}
	block, rest := pem.Decode(data)
	if block == nil || block.Type != typ || len(rest) != 0 {
		panic(fmt.Sprintf("not a single %s PEM block", typ))
	}
	return block.Bytes
}

func writeDER(j job, typ string, der []byte) {
	if j.flag("pem") {
		der = pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
	}
	if err := os.WriteFile(j.str("path"), der, 0o600); err != nil {
		panic(err)
	}
}

func run(j job) map[string]any {
	alg := j.str("alg")
	switch j.str("op") {
	case "keygen":
		return map[string]any{"pk": hex.EncodeToString(j.key().PublicKey().Bytes())}
	case "sign":
		if j.str("prehash") != "" {
			return map[string]any{"unsupported": "no HashML-DSA"}
		}
		if j.str("rnd") != "" {
			return map[string]any{"unsupported": "no way to give rnd"}
		}
		sk, opts := j.key(), &mldsa.Options{Context: string(j.bytes("ctx"))}
		var sig []byte
		var err error
		if j.flag("deterministic") {
			sig, err = sk.SignDeterministic(j.bytes("msg"), opts)
		} else {
			sig, err = sk.Sign(nil, j.bytes("msg"), opts)
		}
		if err != nil {
			panic(err)
		}
		return map[string]any{"sig": hex.EncodeToString(sig)}
	case "verify":
		if j.str("prehash") != "" {
			return map[string]any{"unsupported": "no HashML-DSA"}
		}
		pk, err := mldsa.NewPublicKey(algs[alg], j.bytes("pk"))
		if err != nil {
			panic(err)
		}
		err = mldsa.Verify(pk, j.bytes("msg"), j.bytes("sig"), &mldsa.Options{Context: string(j.bytes("ctx"))})
		return map[string]any{"ok": err == nil}
	case "sign_mu":
		sk := j.key()
		var sig []byte
		var err error
		if j.flag("deterministic") {
			sig, err = sk.SignDeterministic(j.bytes("mu"), mldsacrypto.MLDSAMu)
		} else {
			sig, err = sk.Sign(nil, j.bytes("mu"), mldsacrypto.MLDSAMu)
		}
		if err != nil {
			panic(err)
		}
		return map[string]any{"sig": hex.EncodeToString(sig)}
	case "read_spki":
		key, err := x509.ParsePKIXPublicKey(readDER(j, "PUBLIC KEY"))
		if err != nil {
			panic(err)
		}
		pk, ok := key.(*mldsa.PublicKey)
		if !ok {
			panic("not an ML-DSA public key")
		}
		return map[string]any{"alg": pk.Parameters().String(), "pk": hex.EncodeToString(pk.Bytes())}
	case "read_pkcs8":
		key, err := x509.ParsePKCS8PrivateKey(readDER(j, "PRIVATE KEY"))
		if err != nil {
			panic(err)
		}
		sk, ok := key.(*mldsa.PrivateKey)
		if !ok {
			panic("not an ML-DSA private key")
		}
		pk := sk.PublicKey()
		return map[string]any{
			"alg":  pk.Parameters().String(),
			"pk":   hex.EncodeToString(pk.Bytes()),
			"seed": hex.EncodeToString(sk.Bytes()),
		}
	case "write_spki":
		der, err := x509.MarshalPKIXPublicKey(j.key().PublicKey())
		if err != nil {
			panic(err)
		}
		writeDER(j, "PUBLIC KEY", der)
		return map[string]any{}
	case "write_pkcs8":
		if j.str("form") != "seed" {
			return map[string]any{"unsupported": "writes only the seed form"}
		}
		der, err := x509.MarshalPKCS8PrivateKey(j.key())
		if err != nil {
			panic(err)
		}
		writeDER(j, "PRIVATE KEY", der)
		return map[string]any{}
	}
	return map[string]any{"unsupported": "operation " + j.str("op")}
}

func safeRun(j job) (res map[string]any) {
	defer func() {
		if r := recover(); r != nil {
			res = map[string]any{"error": fmt.Sprint(r)}
		}
	}()
	return run(j)
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: driver JOBS.json")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var jobs []job
	if err := json.Unmarshal(data, &jobs); err != nil {
		panic(errors.New("bad jobs file: " + err.Error()))
	}
	out := make([]map[string]any, 0, len(jobs))
	for _, j := range jobs {
		out = append(out, safeRun(j))
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}
