//! Every response type decoded from arbitrary bytes: an error or a value,
//! never a panic, and what decodes re-encodes.
#![no_main]

use findings_client::client::decode;
use findings_model::*;
use libfuzzer_sys::fuzz_target;

fn roundtrip<T: serde::Serialize + serde::de::DeserializeOwned>(data: &[u8]) {
    if let Ok(value) = decode::<T>(data, "application/json") {
        let bytes = serde_json::to_vec(&value).expect("a decoded value encodes");
        decode::<T>(&bytes, "application/json").expect("what we encode decodes");
    }
}

fuzz_target!(|data: &[u8]| {
    roundtrip::<ListIssuesResponse>(data);
    roundtrip::<ReportResponse>(data);
    roundtrip::<SearchIssuesResponse>(data);
    roundtrip::<ScmConfigResponse>(data);
    let _ = findings_client::ApiError::from_status(500, data, None).to_string();
});
