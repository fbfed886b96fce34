//! Implicit rejection for RSAES-PKCS1-v1_5 decryption
//! (draft-irtf-cfrg-rsa-guidance, Appendix B test vectors): valid
//! ciphertexts give their message, ciphertexts with bad padding give the
//! draft's synthetic message byte for byte — the same bytes OpenSSL 3.2+
//! returns, since the draft specifies OpenSSL's algorithm.
//!
//! The keys are those of the draft (2048, 2049 and 4096 bits; the 2049-bit
//! one has `d = e^-1 mod φ(n)`, not `mod λ(n)`, so these vectors also check
//! that the key-derivation key uses `d` exactly as given).

mod scheme_support;

use rand_core::OsRng;
use redc_rsa::padding::Pkcs1v15Encrypt;
use redc_rsa::{Error, hazmat};
use scheme_support::{DRAFT_K2048, DRAFT_K2049, DRAFT_K4096, FixedKey, hex};

/// The expected output of one case.
#[derive(Clone, Copy)]
enum Expect {
    Ascii(&'static str),
    Hex(&'static str),
}

fn check(key: &FixedKey, id: &str, ct: &str, expect: Expect) {
    let key = key.key();
    let ct = hex(ct);
    let want = match expect {
        Expect::Ascii(s) => s.as_bytes().to_vec(),
        Expect::Hex(h) => hex(h),
    };
    let got = key
        .decrypt(Pkcs1v15Encrypt, &ct, &mut OsRng)
        .unwrap_or_else(|e| panic!("{id}: {e}"));
    assert_eq!(got[..], want[..], "{id}");
    // Deterministic, whatever the blinding.
    let again = key
        .decrypt(Pkcs1v15Encrypt, &ct, &mut OsRng)
        .unwrap_or_else(|e| panic!("{id}: {e}"));
    assert_eq!(got[..], again[..], "{id}");
    // The explicit decoder accepts exactly the valid ones (it gives the
    // same message) and rejects the rest.
    match hazmat::pkcs1v15_decrypt_explicit(&key, &ct, &mut OsRng) {
        Ok(m) => assert_eq!(m[..], want[..], "{id}"),
        Err(e) => assert_eq!(e, Error::Decryption, "{id}"),
    }
}

#[test]
fn draft_b1_2048_bit_key() {
    let k = &DRAFT_K2048;
    check(
        k,
        "B.1.2",
        concat!(
            "8bfe264e85d3bdeaa6b8851b8e3b956ee3d226fd3f69063a86880173a273d9f283b2eebdd1ed35f7e02d91c571981b67",
            "37d5320bd8396b0f3ad5b019daec1b0aab3cbbc026395f4fd14f13673f2dfc81f9b660ec26ac381e6db3299b4e460b43",
            "fab9955df2b3cfaa20e900e19c856238fd371899c2bf2ce8c868b76754e5db3b036533fd603746be13c10d4e3e6022eb",
            "c905d20c2a7f32b215a4cd53b3f44ca1c327d2c2b651145821c08396c89071f665349c25e44d2733cd9305985ceef643",
            "0c3cf57af5fa224089221218fa34737c79c446d28a94c41c96e4e92ac53fbcf384dea8419ea089f8784445a492c812eb",
            "0d409467f75afd7d4d1078886205a066",
        ),
        Expect::Ascii("lorem ipsum dolor sit amet"),
    );
    check(
        k,
        "B.1.3",
        concat!(
            "443ad9c5f00a1f4e9601717d274aacc93a824cb4d99b3c6a42e2b017e52e018443bd77d34a80703cd9b6acf523cd3b2c",
            "d1fea31940a68fba828836f1c3ed2fef071e95e0922ff0f47d0e81dacc13ecdeda3db6476f41e5b3f9ccfcfdf9155800",
            "7b68ffbbe5e93bb088f1e4f0bb39bc7d8600b38930ecd00a341d8cc76955837efff0f0797c4b46fb1b375bba49bcdc87",
            "7f39aaadb045c56b836072383eec6627ae280ad4f9a45d6e5b4cc7cf61d42b194ff0b9c9167c621e5380d8333e3b7f20",
            "c8d564c9ec6c2805f77c0146adea2f688a943b67ce8889f4a6353e6396d551c36a6dbf19359a825d14b69ccc4fd747cf",
            "14a1ca8578d7f0a67dc14b37f5e17ca3",
        ),
        Expect::Hex(""),
    );
    check(
        k,
        "B.1.4",
        concat!(
            "00a2e8f114ea8d05d12dc843e3cc3b2edc8229ff2a028bda29ba9d55e3cd02911902fef1f42a075bf05e8016e8567213",
            "d6f260fa49e360779dd81aeea3e04c2cb567e0d72b98bf754014561b7511e083d20e0bfb9cd23f8a0d3c88900c49d2fc",
            "d5843ff0765607b2026f28202a87aa94678aed22a0c20724541394cd8f44e373eba1d2bae98f516c1e2ba3d86852d064",
            "f856b1daf24795e767a2b90396e50743e3150664afab131fe40ea405dcf572dd1079af1d3f0392ccadcca0a12740dbb2",
            "13b925ca2a06b1bc1383e83a658c82ba2e7427342379084d5f66b544579f07664cb26edd4f10fd913fdbc0de05ef887d",
            "4d1ec1ac95652397ea7fd4e4759fda8b",
        ),
        Expect::Ascii("lorem ipsum"),
    );
    check(
        k,
        "B.1.6",
        concat!(
            "48cceab10f39a4db32f60074feea473cbcdb7accf92e150417f76b44756b190e843e79ec12aa85083a21f5437e7bad0a",
            "60482e601198f9d86923239c8786ee728285afd0937f7dde12717f28389843d7375912b07b991f4fdb0190fced8ba665",
            "314367e8c5f9d2981d0f5128feeb46cb50fc237e64438a86df198dd0209364ae3a842d77532b66b7ef263b83b1541ed6",
            "71b120dfd660462e2107a4ee7b964e734a7bd68d90dda61770658a3c242948532da32648687e0318286473f675b412d6",
            "468f013f14d760a358dfcad3cda2afeec5e268a37d250c37f722f468a70dfd92d7294c3c1ee1e7f8843b7d16f9f37ef3",
            "5748c3ae93aa155cdcdfeb4e78567303",
        ),
        Expect::Hex(concat!(
            "22d850137b9eebe092b24f602dc5bb7918c16bd89ddbf20467b119d205f9c2e4bd7d2592cf1e532106e0f33557565923",
            "c73a02d4f09c0c22bea89148183e60317f7028b3aa1f261f91c979393101d7e15f4067e63979b32751658ef769610fe9",
            "7cf9cef3278b3117d384051c3b1d82c251c2305418c8f6840530e631aad63e70e20e025bcd8efb54c92ec6d3b106a2f8",
            "e64eeff7d38495b0fc50c97138af4b1c0a67a1c4e27b077b8439332edfa8608dfeae653cd6a628ac550395f7e74390e4",
            "2c11682234870925eeaa1fa71b76cf1f2ee3bda69f6717033ff8b7c95c9799e7a3bea5e7e4a1c359772fb6b1c6e6c516",
            "661dfe30c3",
        )),
    );
    check(
        k,
        "B.1.7",
        concat!(
            "006f89db685c0a132700c6a17f88a37a6635d0ab89de4c45dc09736c891ca5bf3401ce34c6e5d51e94ed2f518857ddc1",
            "2d9f9f9e68e01cdc30d86ae5dd83988c0c46a8e39daa1b328a23def551d67fa1964fb15242c83ddd7dd5b1aec720a391",
            "d0b86cb16cf4d3c466850c3df88a3ed85993900d1287a0c90c4b04d34ba29e59967661f3f10e0c998f64e14e777e8e81",
            "371eca5318b4e0b53414292130c821477c51e2bff844836ab10dff293d82e4f40d345968ef268c92ed0bc238f31d50f4",
            "d3f759c23964923e135d15527556410fbd2c451d6a2aa852dc88b01139c6fdd826736d8cd3780601b2977b09c080bd8c",
            "0fa471606ad59f053ad33d9eeb905f20",
        ),
        Expect::Hex("2b5dd72df3cae37f1aef"),
    );
    check(
        k,
        "B.1.8",
        concat!(
            "1439e08c3f84c1a7fec74ce07614b20e01f6fa4e8c2a6cffdc3520d8889e5d9a950c6425798f85d4be38d300ea5695f1",
            "3ecd4cb389d1ff5b82484b494d6280ab7fa78e645933981cb934cce8bfcd114cc0e6811eefa47aae20af638a1cd163d2",
            "d3366186d0a07df0c81f6c9f3171cf3561472e98a6006bf75ddb457bed036dcce199369de7d94ef2c68e8467ee0604ee",
            "a2b3009479162a7891ba5c40cab17f49e1c438cb6eaea4f76ce23cce0e483ff0e96fa790ea15be67671814342d0a23f4",
            "a20262b6182e72f3a67cd289711503c85516a9ed225422f98b116f1ab080a80abd6f0216df88d8cfd67c139243be8dd7",
            "8502a7aaf6bc99d7da71bcdf627e7354",
        ),
        Expect::Hex("0f9b"),
    );
    check(
        k,
        "B.1.9",
        concat!(
            "9b2ec9c0c917c98f1ad3d0119aec6be51ae3106e9af1914d48600ab6a2c0c0c8ae02a2dc3039906ff3aac904af32ec79",
            "8fd65f3ad1afa2e69400e7c1de81f5728f3b3291f38263bc7a90a0563e43ce7a0d4ee9c0d8a716621ca5d3d081188769",
            "ce1b131af7d35b13dea99153579c86db31fe07d5a2c14d621b77854e48a8df41b5798563af489a291e417b6a334c6322",
            "2627376118c02c53b6e86310f728734ffc86ef9d7c8bf56c0c841b24b82b59f51aee4526ba1c4268506d301e4ebc498c",
            "6aebb6fd5258c876bf900bac8ca4d309dd522f6a6343599a8bc3760f422c10c72d0ad527ce4af1874124ace3d99bb74d",
            "b8d69d2528db22c3a37644640f95c05f",
        ),
        Expect::Hex("a1f8c9255c35cfba403ccc"),
    );
}

#[test]
fn draft_b2_2049_bit_key() {
    let k = &DRAFT_K2049;
    check(
        k,
        "B.2.2",
        concat!(
            "013300edbf0bb3571e59889f7ed76970bf6d57e1c89bbb6d1c3991d9df8e65ed54b556d928da7d768facb395bbcc81e9",
            "f8573b45cf8195dbd85d83a59281cddf4163aec11b53b4140053e3bd109f787a7c3cec31d535af1f50e0598d85d96d91",
            "ea01913d07097d25af99c67464ebf2bb396fb28a9233e56f31f7e105d71a23e9ef3b736d1e80e713d1691713df973347",
            "79552fc94b40dd733c7251bc522b673d3ec9354af3dd4ad44fa71c0662213a57ada1d75149697d0eb55c053aaed5ffd0",
            "b815832f454179519d3736fb4faf808416071db0d0f801aca8548311ee708c131f4be658b15f6b54256872c2903ac708",
            "bd43b017b073b5707bc84c2cd9da70e967",
        ),
        Expect::Ascii("lorem ipsum"),
    );
    check(
        k,
        "B.2.6",
        concat!(
            "013a60aa202dedad2d9e78c0c99077ccc17b7d0533aeaf184dcb8c9a81ca4de5715ada598d59b926606dcb005935421f",
            "6ebfd32e62802f0e2de8df08f1ae00e4aced6ebf361a38df817c892309bd07c92c4f2f7be89f286f99711372e3dd959c",
            "cb0a150b28578f29040b39ecf989c26eb77a3480c2d4d363b9563a70f0a0789cc4300af1e600de39dae4a49335d35ac0",
            "156f5395ebebf35531c819c9cf498a97e67ee2299d84564444f7bcd51f9f08d6bac0872439ad57eb9a8134dc665add1f",
            "813d5031484c905a433c115bf889dc46ac672a8898fe235bf463b1b46345299b6f100b48fa954fc262ce58e83f95955b",
            "321c1e86bbfe398b588dd5c75c2c68532b",
        ),
        Expect::Hex(concat!(
            "5c5345594cec69769af002af6513415a0848a4d45601c44b9e84b6e0a42c1356cfc20604df8d334de53fafc6de2125f2",
            "eae2ec9864b0b0d03ef1539017ecf312460cbb3c7c49fe124cf1becce8903f227ec85daaae73fe256acdf39f47b46c14",
            "fbd289d7f9b9e22ee0e7c5d77cbbf22a2f9fbf4e26c5999a7b8335f6478912edfb77a373a82dabbc8233e585ea5ddfef",
            "3d0d872a4a007018005014a8873495951210a4b90209b8286466030e56b1050ed600c777b4dbdb64f86516ef269a3ba7",
            "7285f9be9afebcaad35226f7b3296932baf8dbfea3d77eb6520da203ffc0672232761e2a8a05186181b8dd1f77f069f7",
            "af8de118aa18",
        )),
    );
    check(
        k,
        "B.2.7",
        concat!(
            "000a56cfd7abf21e2c65a28b8145fee663818b6cd218601e9e62bed7de5ac74ceb07b435b305c99e3e286152036086b4",
            "a13eb26164f6f4bf79ac7d6c3fbcdcd74c6dc324c04949a0c88cbf616626cb171a4e333a0e124524b44f78e2d8100c03",
            "e231791523b7d76db2d464e6b5e64244e04ad21128a5feb56092b4ceda35ebfb84f7fafa8e1c098d9923d66e541b3630",
            "7574db8912630fcf734af7bcd4118f1f700804c5001a5950780188fc7862384fb3fc0708eaf3cb2b119177bb6928758f",
            "a75e644d258ac02748dcae7a78ec6c8679598fa9deee4663f1efe27efe8bd15572ff40676b95469aaa42eab4226d86c1",
            "160343255cce4fb7728f7349da27ed096b",
        ),
        Expect::Hex("fc874af235e261083c2c"),
    );
    check(
        k,
        "B.2.8",
        concat!(
            "011644d88f2955389b6d215fc3acd733265d82348fa15178d99e38fd2842030d4e31d1ab15b0f00a80add1a9bfe112f9",
            "c42e827c487193c360dc5888c8c42d5459b1f2c1952dca679ded08f190b6a78bbb6ea00438ebb8b03dc56e45cb36bee4",
            "9a385c71fbf9bbcceda7b130ad6cee2106eff34dd224fba8e9990edf893ae52b0910cdadf44bf29812a98bb9dc163881",
            "5112950bb9e7bad11c610d6406dd2d1c36cddd639e024205a1a2bd82ec97059ef61b5226e3246ca672962194d1222cc0",
            "32003fe34bf5ca0227f1c86439dcfba5203cf57099884276b0fbbf9b9cec93392673d8290a1a3452f3791c3881c9be6a",
            "1eef23841a8a5fde255cbbd3c4fc33827c",
        ),
        Expect::Hex(
            "9b9b496e44544456e70d9be86bd398dae00c7c05d6ea76c45d12f050b1c61c219b2fe47749451e44d96d11916f6ec4cf9eea67cb",
        ),
    );
}

#[test]
fn draft_b4_4096_bit_key() {
    let k = &DRAFT_K4096;
    check(
        k,
        "B.4.7",
        concat!(
            "00cd3bf408c742514e30ebfd001708e01f42de439a09d0d4b10044628becd8bc690c45b967a6a900d6259c7d7d20ad49",
            "810c270d2fe1b75ffaa84f50071f64d1696bce76e96dbcf2af054d77ded54c742aa38fadba52eebf7a5c8b6dbbf01f28",
            "b3ebf4e9b3ca453c92ca8b65771c23671b9da85c51e7a2987395de45b125353d430820b4c90b0ab9fc29e1c576a0ec35",
            "828c99c9880e208ecddf80bdaa9c3474561e4c5bf67bf5d144b173f4f28edd1064a9dd8cf5f40b7c35e7e4dbeb370cca",
            "bf06efb54e243645b902871a804c27904a620f31ef321af4d1589ca359de889524dfb43ddad51ab50617ab79a50a2d20",
            "e2325a05c9963602f2a1d7feaffc80d2b8b88cbd3673531c399342f0bf1c04521d9a441c06593d9e95771129da942d83",
            "bb81c627a50c8baafc2a731d97f2e1f638217f9f7b18f2644578fde5073a54a8988fda357c64398a95965a7dd35ffdd7",
            "eb7495d4d1c9a950a0cd208a68371829420633cb25e9da9e22b215e50f6ec2714f94ce6abb9a94fbbf6cd18f2fd5bfb7",
            "8076034b88186957428fe0ea5e1dec7be31d753f155e2a8f7f4854a726612f43ef91f88124011cd32f6841a347dc0411",
            "d708db65492ec277b81a335b76a862302acebf7db7cac724144c975ed4d91412eeec4cac3b2409696e3678cffcb7756b",
            "de795c55f72da44f325b71dd6ac4e3c1ef512ee8ff24ab316507c6ac60031569",
        ),
        Expect::Hex("59ccd9c2cfe740e9287b"),
    );
    check(
        k,
        "B.4.8",
        concat!(
            "09f010936fd77967dd2aa090be72ecdd8cb2b2a9fb954e644f08a1c1fd5450007ece0b4e8e992831534309419c034b1c",
            "4b369269b808a890eac31d5bbfe73737fd716e117e19638064292539e84dae20ec1d98ecd104e6c88d39d3544d5c43c9",
            "fd4e9f4361c67116516fc2569f96e5df50a63e949d92009a7c865c7dd70ea89c0002dd697dcd0e0304f8fa0738a36813",
            "22e672a9748f9d9eb1b7b8c1646a7bf2a1967b2aa9793ae0ecdbaa2d601350fd931ea164bc02a33a9c22cee47f2d536d",
            "92e465180b44e310bf044eec49cc54972d22e735123fbee76496a4c768acef8966ae9e0ed46b753ec47e20a89af0ccf7",
            "8c266aeb63aeb99d80e4c34bc4608e164aeffd93e886accd426e9e1cfee4f912f235940a9b8d4554953bee8753b8fe05",
            "606fe5f46da70394b10f7e71dba3c10becf85a1f4ee619d421ef69fca837d8b1b42598dea0232668b9c42223d77bae7f",
            "be79a9dbf057eeaa51fceac114661a3b572130776c36cfff9f134b08907ab2a6f927145806a779bc55bfb4215cb8c85d",
            "ecaec5b15cd0a4be691b13e068a2381c33fb5adbdb564fd8be0938fdd710590c08f95aa4ea90cc2cea195ef7a344e147",
            "15beff2186ad7d898e8f904861ab9133817a13d8a6af23f83a89e5e1e7f8e163d6190e91a09c11939e3a7d48990b8e3b",
            "5c0e01b773ba683f7df73b2f88746593c010cd9cab2ea3d9af5ebf30fba1ef0c",
        ),
        Expect::Hex("0cfdf702efa4dc6bc686"),
    );
}

/// Malformed inputs are errors only when the malformation is public.
#[test]
fn public_checks_are_errors() {
    let key = DRAFT_K2048.key();
    let k = key.public_key().size();
    for len in [0, 1, k - 1, k + 1] {
        assert_eq!(
            key.decrypt(Pkcs1v15Encrypt, &vec![0x42; len], &mut OsRng),
            Err(Error::Decryption)
        );
    }
    // c = n and c = 2^(8k) - 1 are out of range.
    let n = key.public_key().n().to_be_bytes_padded(k).unwrap();
    assert_eq!(key.decrypt(Pkcs1v15Encrypt, &n, &mut OsRng), Err(Error::Decryption));
    assert_eq!(
        key.decrypt(Pkcs1v15Encrypt, &vec![0xff; k], &mut OsRng),
        Err(Error::Decryption)
    );
    // c = 0 and c = 1 decrypt to 0 and 1: bad padding, a synthetic message.
    for last in [0u8, 1] {
        let mut c = vec![0u8; k];
        c[k - 1] = last;
        let m = key.decrypt(Pkcs1v15Encrypt, &c, &mut OsRng).unwrap();
        assert!(m.len() <= k - 11);
        assert_eq!(
            hazmat::pkcs1v15_decrypt_explicit(&key, &c, &mut OsRng),
            Err(Error::Decryption)
        );
    }
}
