//! BPMN's flow element kinds: the subtypes of `FlowElement` a process's `elements` may hold, parsed
//! once as the reader meets them and compared as values everywhere after.

use std::fmt;

macro_rules! kinds {
    ($($variant:ident = $name:literal),* $(,)?) => {
        /// A flow element's kind: its BPMN local name (`userTask`, `sequenceFlow`, ...).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub enum ElementKind {
            $(
                #[doc = concat!("`bpmn:", $name, "`")]
                $variant,
            )*
            /// An element of no flow kind this reader knows (never read from a file; a default).
            #[default]
            Unknown,
        }

        impl ElementKind {
            /// The kind a BPMN local name names; `None` when it names no flow element.
            pub fn parse(local: &str) -> Option<ElementKind> {
                match local {
                    $($name => Some(ElementKind::$variant),)*
                    _ => None,
                }
            }

            /// The BPMN local name.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ElementKind::$variant => $name,)*
                    ElementKind::Unknown => "unknown",
                }
            }
        }
    };
}

kinds! {
    SequenceFlow = "sequenceFlow",
    Task = "task",
    UserTask = "userTask",
    ServiceTask = "serviceTask",
    SendTask = "sendTask",
    ReceiveTask = "receiveTask",
    ManualTask = "manualTask",
    BusinessRuleTask = "businessRuleTask",
    ScriptTask = "scriptTask",
    CallActivity = "callActivity",
    SubProcess = "subProcess",
    Transaction = "transaction",
    AdHocSubProcess = "adHocSubProcess",
    StartEvent = "startEvent",
    EndEvent = "endEvent",
    BoundaryEvent = "boundaryEvent",
    IntermediateCatchEvent = "intermediateCatchEvent",
    IntermediateThrowEvent = "intermediateThrowEvent",
    ImplicitThrowEvent = "implicitThrowEvent",
    ExclusiveGateway = "exclusiveGateway",
    InclusiveGateway = "inclusiveGateway",
    ParallelGateway = "parallelGateway",
    ComplexGateway = "complexGateway",
    EventBasedGateway = "eventBasedGateway",
    DataObject = "dataObject",
    DataObjectReference = "dataObjectReference",
    DataStoreReference = "dataStoreReference",
    CallChoreography = "callChoreography",
    ChoreographyTask = "choreographyTask",
    SubChoreography = "subChoreography",
}

impl ElementKind {
    /// Whether it is a gateway of any kind.
    pub(crate) fn is_gateway(self) -> bool {
        self.as_str().ends_with("Gateway")
    }

    /// Whether it holds flow elements of its own (a sub-process, a transaction, an ad-hoc sub-process).
    pub(crate) fn is_container(self) -> bool {
        matches!(self, ElementKind::SubProcess | ElementKind::Transaction | ElementKind::AdHocSubProcess)
    }

    /// Whether it is a step a form can belong to (a user task, a start event).
    pub fn takes_a_form(self) -> bool {
        matches!(self, ElementKind::UserTask | ElementKind::StartEvent)
    }
}

impl fmt::Display for ElementKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for ElementKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for ElementKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Ok(ElementKind::parse(&name).unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::ElementKind;

    #[test]
    fn every_kind_parses_from_its_name() {
        for name in ["userTask", "sequenceFlow", "eventBasedGateway", "subChoreography"] {
            assert_eq!(ElementKind::parse(name).unwrap().as_str(), name);
        }
        assert_eq!(ElementKind::parse("lane"), None);
        assert!(ElementKind::ParallelGateway.is_gateway() && !ElementKind::UserTask.is_gateway());
        assert_eq!(serde_json::to_string(&ElementKind::UserTask).unwrap(), "\"userTask\"");
    }
}
